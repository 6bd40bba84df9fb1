package io.polylink.method.tcp.internal.connection;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;

/**
 * The large-frame path: the rest of a frame the socket did not take at once, written by its
 * sender with the send lock released, waiting for room in the socket as a blocking write would.
 * One sender at a time ({@link Outbound} lets no other write meanwhile); made by the first, and
 * closed with the connection, which wakes a sender waiting in it.
 */
final class LargeFrameWriter implements AutoCloseable {

    /** Nothing: never moves, so threads may share it. */
    private static final ByteBuffer EMPTY = ByteBuffer.allocateDirect(0);

    private final SocketChannel channel;
    private final Inbound in;
    /** Where the sender waits for room in the socket. */
    private final Selector writable;
    /** What is left of the frame's prefix and header, and its payload. */
    private final ByteBuffer[] rest = new ByteBuffer[2];

    /** Send lock held. */
    LargeFrameWriter(SocketChannel channel, Inbound in) throws IOException {
        this.channel = channel;
        this.in = in;
        this.writable = Selector.open();
        try {
            channel.register(writable, SelectionKey.OP_WRITE);
        } catch (IOException | RuntimeException e) {
            writable.close();
            throw e instanceof IOException io ? io : new IOException(e);
        }
    }

    /**
     * Takes what is left of a frame; send lock held.
     *
     * @param head the staged prefix and header: the staging buffer is the next sender's from the
     *     moment the lock goes, so what is left of it moves out
     * @param payload the payload, written from where it is
     */
    void take(ByteBuffer head, ByteBuffer payload) {
        rest[0] = head.hasRemaining() ? ByteBuffer.allocate(head.remaining()).put(head).flip() : EMPTY;
        rest[1] = payload;
    }

    /**
     * Writes the rest, send lock released, until it is written, the connection closes, or the
     * socket took nothing for {@code quietNanos}.
     *
     * @throws IOException as the socket's write does
     */
    void write(long quietNanos, Outbound out) throws IOException {
        try {
            long progressed = System.nanoTime();
            while (out.isOpen() && rest[1].hasRemaining()) {
                long left = quietNanos - (System.nanoTime() - progressed);
                if (left <= 0) {
                    return;
                }
                writable.select(k -> { }, Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                if (writeSome() > 0) {
                    progressed = System.nanoTime();
                }
            }
        } catch (ClosedSelectorException closedMeanwhile) {
            // the connection closed: the sender hears it from the send lock's side
        }
    }

    /**
     * Writes what the socket takes of the rest; at the sending end of a bulk stream holding the
     * read lock and reading aside after, as a send does, so the loop's reads of acknowledgements do
     * not wait for these writes in the socket's lock. Not while waiting for room: then the loop
     * reads.
     */
    private long writeSome() throws IOException {
        boolean reading = in.trySenderRead();
        try {
            long written = channel.write(rest);
            if (reading) {
                in.readAsideIfWanted();
            }
            return written;
        } finally {
            if (reading) {
                in.releaseSenderRead();
            }
        }
    }

    /** Send lock held: puts what is still unwritten in front of {@code queue}, for the loop. */
    void requeueRest(SendQueue queue) {
        if (rest[1].hasRemaining()) {
            queue.addFirst(rest);
        }
    }

    /** Send lock held: forgets the frame. */
    void clear() {
        rest[0] = rest[1] = null;
    }

    /** Wakes a sender waiting for room, and lets the socket's registration go. */
    @Override
    public void close() {
        try {
            writable.close();
        } catch (IOException ignored) {
            // nothing of it is left to use
        }
    }
}
