package io.polylink.bench.internal.pingpong;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;

/**
 * The raw-nio server: one thread serving the one client connection, reading into one direct
 * buffer and answering a ping by writing the frame back from where it was read; streamed
 * payloads are skipped where they lie, so no byte is copied in user space either way. Busy-polled,
 * it blocks in read only when its client has paused (an interleaved run measuring another pair).
 */
final class RawNioServer implements PingPongServer {

    private static final int BUFFER = 256 << 10;
    /**
     * A busy-polling server blocks in read once its client has sent nothing for this long, so an
     * interleaved run's idle pairs leave the cores to the one measured. Nothing measured pauses
     * that long, and the clock is read only every {@link #IDLE_CHECK_EVERY} empty reads.
     */
    private static final long IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final int IDLE_CHECK_EVERY = 4096;

    private final ServerSocketChannel listener;
    private final boolean busyPoll;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile SocketChannel channel;

    RawNioServer(boolean busyPoll) throws IOException {
        this.busyPoll = busyPoll;
        this.listener = ServerSocketChannel.open().bind(new InetSocketAddress(RawNio.LOOPBACK, 0));
        this.thread = new Thread(this::serve, "pingpong-raw-nio-server");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    @Override
    public String address() {
        return Integer.toString(listener.socket().getLocalPort());
    }

    private void serve() {
        try (SocketChannel c = RawNio.configure(listener.accept(), busyPoll)) {
            channel = c;
            serve(c);
        } catch (ClosedChannelException e) {
            // closed by close(): done
        } catch (IOException | RuntimeException e) {
            if (running) {
                System.err.println("raw-nio server failed: " + e);
            }
        }
    }

    private void serve(SocketChannel c) throws IOException {
        ByteBuffer in = ByteBuffer.allocateDirect(BUFFER);
        long streamed = 0;
        long skip = 0;
        ByteBuffer ack = ByteBuffer.allocateDirect(Frames.HEADER + Long.BYTES);
        int emptyReads = 0;
        long idleSince = 0;
        while (running) {
            int n = c.read(in);
            if (n == 0 && busyPoll && (++emptyReads & IDLE_CHECK_EVERY - 1) == 0) {
                long now = System.nanoTime();
                if (idleSince == 0) {
                    idleSince = now;
                } else if (now - idleSince > IDLE_NANOS) {
                    n = readBlocking(c, in);
                }
            }
            if (n < 0) {
                return;
            }
            if (n == 0) {
                Thread.onSpinWait();
                continue;
            }
            emptyReads = 0;
            idleSince = 0;
            in.flip();
            if (skip > 0) {
                int take = (int) Math.min(skip, in.remaining());
                in.position(in.position() + take);
                skip -= take;
            }
            while (skip == 0 && in.remaining() >= Frames.HEADER) {
                int at = in.position();
                int length = in.getInt(at);
                int op = in.getInt(at + 4);
                if (length < 4 || length > Frames.MAX_LENGTH) {
                    throw new IOException("frame length " + length + " outside 4.." + Frames.MAX_LENGTH);
                }
                if (op == Frames.STREAM) {
                    streamed++;
                    int take = Math.min(length - 4, in.remaining() - Frames.HEADER);
                    in.position(at + Frames.HEADER + take);
                    skip = length - 4 - take;
                } else if (op == Frames.PING) {
                    if (in.remaining() < 4 + length) {
                        if (4 + length > in.capacity()) {
                            in = ByteBuffer.allocateDirect(4 + length).put(in).flip();
                        }
                        break;
                    }
                    int limit = in.limit();
                    in.limit(at + 4 + length);
                    RawNio.writeFully(c, in);
                    in.limit(limit);
                } else if (op == Frames.STREAM_END) {
                    in.position(at + 4 + length);
                    ack.clear().putInt(4 + Long.BYTES).putInt(Frames.STREAM_END).putLong(streamed).flip();
                    RawNio.writeFully(c, ack);
                    streamed = 0;
                } else {
                    throw new IOException("unknown op " + op);
                }
            }
            in.compact();
        }
    }

    /** Waits in a blocking read, for a client that paused; polling again once bytes came. */
    private static int readBlocking(SocketChannel c, ByteBuffer in) throws IOException {
        c.configureBlocking(true);
        try {
            return c.read(in);
        } finally {
            c.configureBlocking(false);
        }
    }

    @Override
    public void close() throws Exception {
        running = false;
        listener.close();
        SocketChannel c = channel;
        if (c != null) {
            c.close();
        }
        thread.join(5_000);
    }
}
