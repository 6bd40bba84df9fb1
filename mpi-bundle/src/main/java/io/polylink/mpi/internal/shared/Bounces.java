package io.polylink.mpi.internal.shared;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * Shared buffers of this rank's that a large message from ordinary memory (a Java array, a direct
 * buffer of its own) is packed into, so that a rank of the same host reads it there as it reads a
 * shared buffer: two copies in all, as the chunks of a rendezvous take, but with no chunk to hand
 * over and acknowledge one by one, and the receiver's copy combining as it reads where it reduces.
 *
 * <p>Kept for reuse, in powers of two from {@value #SMALLEST} bytes, within a bound on the bytes of
 * all of them: a message for which none is free within it goes in chunks, as before. Once a file
 * cannot be made (a full directory), no more are tried.
 */
public final class Bounces {

    /** The smallest bounce buffer: the least that carries a message over the eager limit of 64 KiB. */
    static final int SMALLEST = 128 * 1024;

    /** A buffer to pack a message into, and where it lies for the receiver. */
    public record Bounce(ByteBuffer buffer, SharedBytes at) {}

    private final OwnSegments own;
    /**
     * The bound, lowered to the bytes made once a file could not be made: a full directory is not
     * tried again for every message.
     */
    private long bound;
    private final ArrayDeque<Bounce>[] free;
    /** Bytes of the bounce buffers made and not discarded, free or taken. */
    private long made;

    /**
     * @param own where the buffers are made
     * @param bound the most bytes all of them may take
     */
    @SuppressWarnings("unchecked")
    public Bounces(OwnSegments own, long bound) {
        this.own = own;
        this.bound = bound;
        int classes = Math.max(1, 64 - Long.numberOfLeadingZeros(Math.max(bound, SMALLEST) / SMALLEST));
        this.free = new ArrayDeque[classes];
        for (int i = 0; i < classes; i++) {
            free[i] = new ArrayDeque<>();
        }
    }

    /**
     * @return a buffer of at least {@code bytes}, cleared; or {@code null} if none is free and
     *     another would take more than the bound, or its file could not be made
     */
    public synchronized Bounce take(long bytes) {
        int size = sizeFor(bytes);
        if (size < 0) {
            return null;
        }
        int c = classOf(size);
        Bounce b = free[c].poll();
        if (b != null) {
            b.buffer().clear();
            return b;
        }
        if (made + size > bound) {
            return null;
        }
        ByteBuffer buffer = own.allocate(size);
        SharedBytes at = buffer == null ? null : own.find(buffer, 0);
        if (at == null) {
            bound = made; // the rank finalized, or the directory is full (logged once): reuse only
            return null;
        }
        made += size;
        return new Bounce(buffer, at);
    }

    /** Takes back a buffer no receiver reads any more. */
    public synchronized void give(Bounce b) {
        free[classOf(b.buffer().capacity())].push(b);
    }

    /**
     * Forgets a buffer a receiver may still read (its send failed): it is never reused, and its file
     * goes once the buffer is collected.
     */
    public synchronized void discard(Bounce b) {
        made -= b.buffer().capacity();
    }

    /** @return the bytes of the buffers made and not discarded */
    public synchronized long made() {
        return made;
    }

    /** @return the size of the buffer for {@code bytes}: a power of two; {@code -1} if beyond the bound */
    private int sizeFor(long bytes) {
        long size = Math.max(SMALLEST, Long.highestOneBit(Math.max(1, bytes - 1)) << 1);
        return size > bound || size > Integer.MAX_VALUE ? -1 : (int) size;
    }

    private static int classOf(int size) {
        return Integer.numberOfTrailingZeros(size / SMALLEST);
    }
}
