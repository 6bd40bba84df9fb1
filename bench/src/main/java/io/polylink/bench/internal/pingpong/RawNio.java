package io.polylink.bench.internal.pingpong;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * Reading and writing whole buffers on one socket, either blocking or busy-polling a non-blocking
 * channel. Busy-polling never sleeps, so a reply is seen as soon as the kernel has it, at the
 * price of a core per side; blocking pays a wake-up per message.
 */
final class RawNio {

    static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private RawNio() {}

    /** Sets the options every raw peer uses: no Nagle, and the given blocking mode. */
    static SocketChannel configure(SocketChannel channel, boolean busyPoll) throws IOException {
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        channel.configureBlocking(!busyPoll);
        return channel;
    }

    static SocketChannel connect(int port, boolean busyPoll) throws IOException {
        SocketChannel channel = SocketChannel.open(new InetSocketAddress(LOOPBACK, port));
        return configure(channel, busyPoll);
    }

    /** Writes all of {@code buffer}; a non-blocking channel is polled until it took everything. */
    static void writeFully(SocketChannel channel, ByteBuffer buffer) throws IOException {
        long deadline = 0;
        int spins = 0;
        while (buffer.hasRemaining()) {
            if (channel.write(buffer) == 0 && (++spins & 0xFFF) == 0) {
                deadline = deadline == 0 ? Deadline.forReply() : deadline;
                Deadline.check(deadline, "room in the socket");
            }
        }
    }

    /** Fills {@code buffer} up to its limit; a non-blocking channel is polled until it is full. */
    static void readFully(SocketChannel channel, ByteBuffer buffer) throws IOException {
        long deadline = 0;
        int spins = 0;
        while (buffer.hasRemaining()) {
            int n = channel.read(buffer);
            if (n < 0) {
                throw new EOFException("the peer closed the connection");
            }
            if (n == 0) {
                Thread.onSpinWait();
                if ((++spins & 0xFFF) == 0) {
                    deadline = deadline == 0 ? Deadline.forReply() : deadline;
                    Deadline.check(deadline, "reply from the peer");
                }
            }
        }
    }
}
