package io.polylink.core.internal.channel;

import io.polylink.LinkException;
import io.polylink.core.internal.wire.EncodedTable;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * RSRs an inline handler sent while their stack waited for the peer (a transform's handshake),
 * kept in send order, with copies of their own, for the control thread to send once the stack
 * is ready. Bounded: an inline handler cannot wait, so past the bound its sends fail instead.
 * Guarded by its own monitor; {@link #any()} is read by every send without it.
 */
final class DeferredRsrs {

    /** What inline handlers may leave waiting for a handshake before their sends fail instead. */
    static final long MAX_BYTES = 4L << 20;
    /** What one waiting RSR costs besides its payload, so that empty ones are bounded too. */
    static final int PER_RSR = 128;

    /** An RSR waiting, with its own copies of the payload and the tables to send before it. */
    record Deferred(StackBinding stack, int flags, int handler, int endpoint, int sequence, ByteBuffer payload,
                    EncodedTable[] tables) {

        /** Copies the payload, and the lent bytes that follow it, so the caller's buffers are free. */
        Deferred(StackBinding stack, int flags, int handler, int endpoint, int sequence, ByteBuffer payload,
                 ByteBuffer tail, EncodedTable[] tables, int tableCount) {
            this(stack, flags, handler, endpoint, sequence, copy(payload, tail),
                Arrays.copyOf(tables == null ? new EncodedTable[0] : tables, tableCount));
        }

        private static ByteBuffer copy(ByteBuffer payload, ByteBuffer tail) {
            int length = payload.remaining() + (tail == null ? 0 : tail.remaining());
            ByteBuffer copy = ByteBuffer.allocate(length).put(payload.duplicate());
            if (tail != null) {
                copy.put(tail.duplicate());
            }
            return copy.flip();
        }
    }

    private final ArrayDeque<Deferred> waiting = new ArrayDeque<>();
    private long bytes;
    private volatile boolean any;

    /**
     * @param connection for the error message
     * @throws LinkException if the RSRs waiting already hold {@link #MAX_BYTES}
     */
    synchronized void add(Deferred d, Object connection) {
        long cost = PER_RSR + d.payload().remaining();
        if (bytes + cost > MAX_BYTES) {
            throw new LinkException(connection + ": " + waiting.size() + " RSRs (" + bytes
                + " bytes) sent from inline handlers already wait for the " + d.stack().transforms()
                + " handshake, so this one is refused: an inline handler cannot wait for it; give the handler "
                + "Delivery.EXECUTOR to let it wait");
        }
        waiting.add(d);
        bytes += cost;
        any = true;
    }

    /** @return whether any RSR waits */
    boolean any() {
        return any;
    }

    /** @return the oldest RSR waiting, left in place, or {@code null} */
    synchronized Deferred first() {
        return waiting.peek();
    }

    /** Lets go of the oldest RSR, which was sent. */
    synchronized void sent() {
        Deferred d = waiting.poll();
        bytes -= PER_RSR + d.payload().limit();
        any = !waiting.isEmpty();
    }

    /** @return how many RSRs waited; all are dropped, since the connection failed */
    synchronized int clear() {
        int lost = waiting.size();
        waiting.clear();
        bytes = 0;
        any = false;
        return lost;
    }
}
