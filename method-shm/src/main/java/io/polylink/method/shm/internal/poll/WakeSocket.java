package io.polylink.method.shm.internal.poll;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;

/**
 * Where a parked poller sleeps: a selector over a datagram socket on a loopback port, which the
 * inbox header names. A producer that finds the poller parked sends it one byte there (see
 * {@link io.polylink.method.shm.internal.ring.Outbox#commit}).
 */
public final class WakeSocket implements AutoCloseable {

    private final Selector selector;
    private final DatagramChannel channel;
    private final ByteBuffer drain = ByteBuffer.allocate(64);

    private WakeSocket(Selector selector, DatagramChannel channel) {
        this.selector = selector;
        this.channel = channel;
    }

    /** @throws IOException if no loopback port can be bound */
    public static WakeSocket open() throws IOException {
        Selector selector = Selector.open();
        DatagramChannel channel = null;
        try {
            channel = DatagramChannel.open();
            channel.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            channel.configureBlocking(false);
            channel.register(selector, SelectionKey.OP_READ);
            return new WakeSocket(selector, channel);
        } catch (IOException | RuntimeException e) {
            closeQuietly(channel);
            closeQuietly(selector);
            throw e;
        }
    }

    /** @return the loopback port producers poke */
    public int port() throws IOException {
        return ((InetSocketAddress) channel.getLocalAddress()).getPort();
    }

    /** Sleeps until a poke comes, {@link #wakeup} is called, or {@code millis} pass. */
    void sleep(long millis) throws IOException {
        selector.select(millis);
    }

    /** Takes what pokes came, so the next sleep waits for a new one. */
    void drain() throws IOException {
        selector.selectedKeys().clear();
        while (channel.receive(drain.clear()) != null) {
            // each poke is one byte; one is enough
        }
    }

    /** Ends a sleep now, or the next one at once; any thread. */
    void wakeup() {
        selector.wakeup();
    }

    @Override
    public void close() {
        closeQuietly(channel);
        closeQuietly(selector);
    }

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable != null) {
            try {
                closeable.close();
            } catch (Exception ignored) {
                // closing anyway
            }
        }
    }
}
