package io.polylink.bench.internal.pingpong;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.HdrHistogram.Histogram;

/**
 * The raw-mailbox client: the measuring thread copies each ping into the server's slot and
 * busy-polls its own slot for the reply, whose payload it copies out.
 */
final class RawMailboxClient implements PingPongClient {

    private final RawMailbox.Slot out;
    private final RawMailbox.Slot in;
    private final ByteBuffer count = ByteBuffer.allocate(Long.BYTES);
    private ByteBuffer payload;
    private ByteBuffer reply;
    private int size;

    /** @param path the mailbox file the server printed */
    RawMailboxClient(String path) throws IOException {
        RawMailbox mailbox = RawMailbox.open(Path.of(path));
        this.out = mailbox.toServer();
        this.in = mailbox.toClient();
    }

    @Override
    public void size(int size) {
        this.size = size;
        payload = ByteBuffer.allocateDirect(size).put(PolylinkPeers.payload(size)).flip();
        reply = ByteBuffer.allocateDirect(size);
    }

    @Override
    public void roundTrips(int count, Histogram into) throws IOException {
        for (int i = 0; i < count; i++) {
            long start = System.nanoTime();
            out.write(Frames.PING, payload.clear());
            int op = in.await();
            int length = in.length();
            in.readInto(reply.clear());
            ClientLoop.record(into, System.nanoTime() - start);
            if (op != Frames.PING || length != size) {
                throw new IOException("reply of " + length + " bytes, op " + op + " to a " + size + "-byte ping");
            }
        }
    }

    @Override
    public void stream(int messages) {
        for (int i = 0; i < messages; i++) {
            out.write(Frames.STREAM, payload.clear());
        }
        out.write(Frames.STREAM_END, payload.clear().limit(0));
        int op = in.await();
        in.readInto(count.clear());
        long counted = count.getLong(0);
        if (op != Frames.STREAM_END || counted != messages) {
            throw new IllegalStateException("server counted " + counted + " of " + messages + " streamed messages");
        }
    }

    @Override
    public void close() {
        // Nothing to release: the mapping goes with the slots, the server deletes the file.
    }
}
