package io.polylink.bench.internal.pingpong;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.HdrHistogram.Histogram;

/**
 * The raw-shm client: the measuring thread copies each frame into the server's ring and
 * busy-polls its own ring for the reply, whose payload it copies out.
 */
final class RawShmClient implements PingPongClient {

    private final RawShmRing out;
    private final RawShmRing in;
    private final ByteBuffer header = ByteBuffer.allocate(Frames.HEADER);
    private final ByteBuffer ack = ByteBuffer.allocate(Long.BYTES);
    private ByteBuffer payload;
    private ByteBuffer reply;
    private int size;

    /** @param path the segment file the server printed */
    RawShmClient(String path) throws IOException {
        RawShmSegment segment = RawShmSegment.open(Path.of(path));
        this.out = segment.toServer();
        this.in = segment.toClient();
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
            out.writeRecord(header(4 + size, Frames.PING), payload.clear());
            in.readHeader(header);
            in.read(reply.clear());
            ClientLoop.record(into, System.nanoTime() - start);
            if (header.getInt(0) != 4 + size || header.getInt(4) != Frames.PING) {
                throw new IOException("reply of length " + header.getInt(0) + ", op " + header.getInt(4)
                    + " to a " + size + "-byte ping");
            }
        }
    }

    @Override
    public void stream(int messages) throws IOException {
        for (int i = 0; i < messages; i++) {
            out.writeRecord(header(4 + size, Frames.STREAM), payload.clear());
        }
        out.writeRecord(header(4, Frames.STREAM_END), payload.clear().limit(0));
        in.readHeader(header);
        in.read(ack.clear());
        long counted = ack.getLong(0);
        if (header.getInt(4) != Frames.STREAM_END || counted != messages) {
            throw new IllegalStateException("server counted " + counted + " of " + messages + " streamed messages");
        }
    }

    private ByteBuffer header(int length, int op) {
        return header.clear().putInt(length).putInt(op).flip();
    }

    @Override
    public void close() {
        // Nothing to release: the mapping goes with the rings, the server deletes the file.
    }
}
