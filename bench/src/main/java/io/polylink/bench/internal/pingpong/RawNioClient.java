package io.polylink.bench.internal.pingpong;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import org.HdrHistogram.Histogram;

/** The raw-nio client: the measuring thread itself writes each frame and reads the reply. */
final class RawNioClient implements PingPongClient {

    private final SocketChannel channel;
    private final ByteBuffer end = ByteBuffer.allocateDirect(Frames.HEADER);
    private final ByteBuffer ack = ByteBuffer.allocateDirect(Frames.HEADER + Long.BYTES);
    private ByteBuffer ping;
    private ByteBuffer stream;
    private ByteBuffer reply;
    private int size;

    RawNioClient(int port, boolean busyPoll) throws IOException {
        this.channel = RawNio.connect(port, busyPoll);
    }

    @Override
    public void size(int size) {
        this.size = size;
        ping = frame(Frames.PING, size);
        stream = frame(Frames.STREAM, size);
        reply = ByteBuffer.allocateDirect(Frames.HEADER + size);
    }

    private static ByteBuffer frame(int op, int size) {
        ByteBuffer frame = ByteBuffer.allocateDirect(Frames.HEADER + size);
        frame.putInt(0, 4 + size).putInt(4, op);
        return frame;
    }

    @Override
    public void roundTrips(int count, Histogram into) throws IOException {
        for (int i = 0; i < count; i++) {
            long start = System.nanoTime();
            RawNio.writeFully(channel, ping.clear());
            RawNio.readFully(channel, reply.clear());
            ClientLoop.record(into, System.nanoTime() - start);
            if (reply.getInt(0) != 4 + size || reply.getInt(4) != Frames.PING) {
                throw new IOException("reply of length " + reply.getInt(0) + ", op " + reply.getInt(4)
                    + " to a " + size + "-byte ping");
            }
        }
    }

    @Override
    public void stream(int messages) throws IOException {
        for (int i = 0; i < messages; i++) {
            RawNio.writeFully(channel, stream.clear());
        }
        end.clear().putInt(4).putInt(Frames.STREAM_END).flip();
        RawNio.writeFully(channel, end);
        RawNio.readFully(channel, ack.clear());
        long counted = ack.getLong(Frames.HEADER);
        if (ack.getInt(4) != Frames.STREAM_END || counted != messages) {
            throw new IllegalStateException("server counted " + counted + " of " + messages + " streamed messages");
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
