package io.polylink.method.tcp.internal.connection;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.GatheringByteChannel;

/**
 * The bytes a connection's socket did not take yet, in one direct ring that grows on demand.
 *
 * <pre>
 *   0          head            tail         capacity       (indices modulo capacity)
 *   |  free    |##### queued ###|   free     |
 *   |## queued (wrapped) ##|   free   |#### queued ####|
 *                          tail       head
 * </pre>
 *
 * <p>A frame the socket only partly took is copied in once, and written out from direct memory,
 * so neither a heap buffer per frame nor the JDK's copy of heap buffers into a temporary direct
 * one is paid. The bound in bytes is the caller's; the ring only ever holds what it was given.
 * Not thread-safe: the connection's lock guards it.
 */
final class SendQueue {

    /** Covers a burst of small frames without growing; large frames grow it once. */
    static final int INITIAL_CAPACITY = 64 * 1024;

    private ByteBuffer ring;
    /** Two views over {@link #ring}, for a gathering write of a wrapped span. */
    private final ByteBuffer[] spans = new ByteBuffer[2];
    private int head;
    private int size;

    /** @return bytes queued */
    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** @return bytes of direct memory held, queued or not */
    int capacity() {
        return ring == null ? 0 : ring.capacity();
    }

    /** Appends what remains of {@code src}, consuming it; grows the ring if it must. */
    void add(ByteBuffer src) {
        int n = src.remaining();
        if (n == 0) {
            return;
        }
        ensureFree(n);
        copyIn((head + size) % ring.capacity(), src);
        size += n;
    }

    /**
     * Puts what remains of {@code srcs} in front of everything queued, consuming it: the rest of a
     * frame a sender was writing itself, ahead of frames queued meanwhile.
     */
    void addFirst(ByteBuffer... srcs) {
        int n = 0;
        for (ByteBuffer src : srcs) {
            n += src.remaining();
        }
        if (n == 0) {
            return;
        }
        ensureFree(n);
        head = Math.floorMod(head - n, ring.capacity());
        size += n;
        int at = head;
        for (ByteBuffer src : srcs) {
            at = copyIn(at, src);
        }
    }

    /**
     * Copies what remains of {@code src} into the ring from {@code at}, wrapping at its end, and
     * consumes it; the caller made room.
     *
     * @return the index after the copy
     */
    private int copyIn(int at, ByteBuffer src) {
        int count = src.remaining();
        int first = Math.min(count, ring.capacity() - at);
        ring.put(at, src, src.position(), first);
        ring.put(0, src, src.position() + first, count - first);
        src.position(src.limit());
        return (at + count) % ring.capacity();
    }

    /**
     * Writes queued bytes, oldest first, as far as the channel takes them in one call.
     *
     * @return bytes written
     */
    long writeTo(GatheringByteChannel channel) throws IOException {
        if (size == 0) {
            return 0;
        }
        int capacity = ring.capacity();
        int first = Math.min(size, capacity - head);
        spans[0].limit(head + first).position(head);
        long written;
        if (first == size) {
            written = channel.write(spans[0]);
        } else {
            spans[1].limit(size - first).position(0);
            written = channel.write(spans);
        }
        head = (int) ((head + written) % capacity);
        size -= (int) written;
        if (size == 0) {
            head = 0; // the next burst starts at the front: one span, not two
        }
        return written;
    }

    /** Forgets what is queued, keeping the memory. */
    void clear() {
        head = 0;
        size = 0;
    }

    /** Gives the memory back if nothing is queued; the next {@link #add} allocates again. */
    void release() {
        if (size == 0) {
            ring = null;
            spans[0] = spans[1] = null;
            head = 0;
        }
    }

    private void ensureFree(int n) {
        long needed = (long) size + n;
        if (ring != null && needed <= ring.capacity()) {
            return;
        }
        if (needed > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("send queue would exceed 2 GiB");
        }
        int capacity = ring == null ? INITIAL_CAPACITY : ring.capacity();
        while (capacity < needed) {
            capacity = (int) Math.min(Integer.MAX_VALUE - 8, capacity * 2L);
        }
        ByteBuffer grown = ByteBuffer.allocateDirect(capacity);
        if (ring != null) {
            int first = Math.min(size, ring.capacity() - head);
            grown.put(0, ring, head, first);
            grown.put(first, ring, 0, size - first);
        }
        ring = grown;
        head = 0;
        spans[0] = grown.duplicate();
        spans[1] = grown.duplicate();
    }
}
