package io.polylink.bench.internal.pingpong;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The raw-shm server: one thread busy-polling the client's ring (parking between polls once quiet,
 * {@link QuietSpin}). A ping's payload is copied
 * straight from the client's ring into the reply ring (one copy, as raw-nio writes a ping back
 * from its read buffer; pings larger than a ring go through a buffer); streamed payloads are
 * copied out into a buffer of the server's, once, as a receiver that hands messages on does.
 * The least a consumer must do: the floor for shared-memory transports.
 */
final class RawShmServer implements PingPongServer {

    private final ServedFile<RawShmSegment> file;

    RawShmServer() throws IOException {
        file = new ServedFile<>("raw-shm", RawShmSegment::create, RawShmServer::serve);
    }

    @Override
    public String address() {
        return file.path();
    }

    private static void serve(RawShmSegment segment, ServedFile<RawShmSegment> file) {
        RawShmRing in = segment.toServer();
        RawShmRing out = segment.toClient();
        ByteBuffer header = ByteBuffer.allocate(Frames.HEADER);
        ByteBuffer ack = ByteBuffer.allocate(Frames.HEADER + Long.BYTES);
        ByteBuffer large = ByteBuffer.allocateDirect(0);
        ByteBuffer received = ByteBuffer.allocateDirect(0);
        long streamed = 0;
        QuietSpin quiet = new QuietSpin();
        try {
            while (file.running()) {
                if (!in.available(Frames.HEADER)) {
                    quiet.idle();
                    continue;
                }
                quiet.worked();
                in.readHeader(header);
                int length = header.getInt(0);
                int op = header.getInt(4);
                if (length < 4 || length > Frames.MAX_LENGTH) {
                    throw new IllegalStateException("frame length " + length + " outside 4.." + Frames.MAX_LENGTH);
                }
                switch (op) {
                    case Frames.PING -> {
                        out.put(header.position(0));
                        if (length + 4 <= out.capacity()) {
                            in.transferTo(out, length - 4);
                        } else {
                            // The client writes all of a ping before it reads; a ping larger than
                            // the reply ring must be taken out whole first, or both wait for room.
                            large = large.capacity() >= length - 4 ? large : ByteBuffer.allocateDirect(length - 4);
                            in.read(large.clear().limit(length - 4));
                            out.writeRecord(ByteBuffer.allocate(0), large.flip());
                        }
                    }
                    case Frames.STREAM -> {
                        streamed++;
                        // Read out, as any receiver hands a message on: bytes left in the ring
                        // never reach this core, which would make the floor a memcpy into cache.
                        received = received.capacity() >= length - 4 ? received : ByteBuffer.allocateDirect(length - 4);
                        in.read(received.clear().limit(length - 4));
                    }
                    case Frames.STREAM_END -> {
                        in.skip(length - 4);
                        out.writeRecord(ack.clear().putInt(4 + Long.BYTES).putInt(Frames.STREAM_END).putLong(streamed).flip(),
                            ByteBuffer.allocate(0));
                        streamed = 0;
                    }
                    default -> throw new IllegalStateException("unknown op " + op);
                }
            }
        } catch (RuntimeException e) {
            if (file.running()) {
                System.err.println("raw-shm server failed: " + e);
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        file.close();
    }
}
