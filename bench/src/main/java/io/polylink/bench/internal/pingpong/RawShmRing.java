package io.polylink.bench.internal.pingpong;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One single-producer, single-consumer byte ring in a region of a memory-mapped file, used as a
 * pipe: the producer copies bytes in and publishes its position, the consumer waits for them,
 * reads or skips them and publishes its own. Positions only grow; the byte at position p is at
 * {@code DATA + (p & mask)}. Release on publishing a position, acquire on reading the other
 * side's, so bytes are visible before the position that covers them. Busy-spins while it waits;
 * every wait is bounded by {@link Deadline#REPLY_NANOS}.
 *
 * <pre>
 *   0                8        128               136      256
 *   | tail (producer)| pad ... | head (consumer) | pad ... | data (capacity bytes) ...
 * </pre>
 *
 * Head and tail sit on separate cache-line pairs so the two sides do not invalidate each other's
 * line on every update. One object per side and process; each side uses only its half.
 */
final class RawShmRing {

    static final int TAIL = 0;
    static final int HEAD = 128;
    static final int DATA = 256;

    private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

    private final ByteBuffer region;
    private final int capacity;
    private final int mask;
    /**
     * The producer's position as published, the position up to which it has written (bytes
     * between the two are not visible yet), and the last head it read (a lower bound of the
     * real one).
     */
    private long tail;
    private long written;
    private long headSeen;
    /** The consumer's own position, and the last tail it read. */
    private long head;
    private long tailSeen;

    /** @param region {@link #DATA} bytes of header then a power-of-two data area, zeroed before either side starts */
    RawShmRing(ByteBuffer region) {
        this.region = region;
        this.capacity = region.capacity() - DATA;
        if (capacity <= 0 || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("ring data area of " + capacity + " bytes is not a power of two");
        }
        this.mask = capacity - 1;
        this.tail = (long) LONGS.getAcquire(region, TAIL);
        this.written = tail;
        this.head = (long) LONGS.getAcquire(region, HEAD);
        this.headSeen = head;
        this.tailSeen = tail;
    }

    /** @return the bytes a region for {@code capacity} data bytes takes */
    static int regionBytes(int capacity) {
        return DATA + capacity;
    }

    /** @return the shared memory this ring lives in (for a second side in the same process, as in tests) */
    ByteBuffer region() {
        return region;
    }

    /** @return the data area's size: a record longer than this cannot be in the ring at once */
    int capacity() {
        return capacity;
    }

    // ---- producer side

    /**
     * Copies {@code src} (position to limit) in after what was written before, waiting for room
     * as needed; consumes it. The bytes become visible at the next {@link #publish}, or earlier if
     * the ring fills up (so a record longer than the ring still flows).
     */
    void put(ByteBuffer src) {
        while (src.hasRemaining()) {
            int n = awaitRoom(src.remaining());
            region.put(DATA + (int) (written & mask), src, src.position(), n);
            src.position(src.position() + n);
            written += n;
        }
    }

    /** Makes everything written so far visible to the consumer: one release store. */
    void publish() {
        if (written != tail) {
            tail = written;
            LONGS.setRelease(region, TAIL, tail);
        }
    }

    /** Writes and publishes {@code header} (position 0 to limit) then {@code payload}: one record, one release when it fits. */
    void writeRecord(ByteBuffer header, ByteBuffer payload) {
        put(header);
        put(payload);
        publish();
    }

    /** @return contiguous free bytes at the write position, between 1 and {@code wanted}, after waiting for at least one */
    private int awaitRoom(int wanted) {
        long deadline = 0;
        int spins = 0;
        while (written - headSeen == capacity) {
            // Full: what is written but hidden must show, or the consumer never makes room.
            publish();
            headSeen = (long) LONGS.getAcquire(region, HEAD);
            if (written - headSeen < capacity) {
                break;
            }
            Thread.onSpinWait();
            if ((++spins & 0xFFF) == 0) {
                deadline = deadline == 0 ? Deadline.forReply() : deadline;
                Deadline.check(deadline, "room in the raw-shm ring");
            }
        }
        int free = (int) (capacity - (written - headSeen));
        int toEnd = capacity - (int) (written & mask);
        return Math.min(wanted, Math.min(free, toEnd));
    }

    // ---- consumer side

    /** @return whether at least {@code n} bytes are there to read, without waiting */
    boolean available(int n) {
        if (tailSeen - head >= n) {
            return true;
        }
        tailSeen = (long) LONGS.getAcquire(region, TAIL);
        return tailSeen - head >= n;
    }

    /**
     * Reads an 8-byte record header, waiting for it.
     *
     * @return {@code scratch} holding it, position 0: {@code getInt(0)} the length, {@code getInt(4)} the op
     */
    ByteBuffer readHeader(ByteBuffer scratch) {
        read(scratch.clear().limit(Frames.HEADER));
        return scratch.flip();
    }

    /** Reads {@code dst}'s remaining bytes, waiting for them. */
    void read(ByteBuffer dst) {
        while (dst.hasRemaining()) {
            int n = awaitBytes(dst.remaining());
            dst.put(dst.position(), region, DATA + (int) (head & mask), n);
            dst.position(dst.position() + n);
            LONGS.setRelease(region, HEAD, head += n);
        }
    }

    /** Consumes {@code n} bytes without looking at them, as soon as they are there. */
    void skip(long n) {
        while (n > 0) {
            int take = awaitBytes((int) Math.min(n, capacity));
            n -= take;
            LONGS.setRelease(region, HEAD, head += take);
        }
    }

    /**
     * Moves {@code n} bytes from this ring (as its consumer) into {@code out} (as its producer)
     * after what was written there before, copying once; publishes {@code out} at the end.
     */
    void transferTo(RawShmRing out, int n) {
        while (n > 0) {
            int take = awaitBytes(n);
            int room = out.awaitRoom(take);
            out.region.put(DATA + (int) (out.written & out.mask), region, DATA + (int) (head & mask), room);
            out.written += room;
            LONGS.setRelease(region, HEAD, head += room);
            n -= room;
        }
        out.publish();
    }

    /** @return contiguous readable bytes at the head, between 1 and {@code wanted}, after waiting for at least one */
    private int awaitBytes(int wanted) {
        long deadline = 0;
        int spins = 0;
        while (tailSeen == head) {
            tailSeen = (long) LONGS.getAcquire(region, TAIL);
            if (tailSeen != head) {
                break;
            }
            Thread.onSpinWait();
            if ((++spins & 0xFFF) == 0) {
                deadline = deadline == 0 ? Deadline.forReply() : deadline;
                Deadline.check(deadline, "bytes in the raw-shm ring");
            }
        }
        int ready = (int) Math.min(tailSeen - head, capacity);
        int toEnd = capacity - (int) (head & mask);
        return Math.min(wanted, Math.min(ready, toEnd));
    }
}
