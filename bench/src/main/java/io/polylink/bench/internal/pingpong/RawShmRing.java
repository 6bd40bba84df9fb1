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
    /** The producer's own position, and the last head it read (a lower bound of the real one). */
    private long tail;
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
        this.head = (long) LONGS.getAcquire(region, HEAD);
        this.headSeen = head;
        this.tailSeen = tail;
    }

    /** @return the bytes a region for {@code capacity} data bytes takes */
    static int regionBytes(int capacity) {
        return DATA + capacity;
    }

    // ---- producer side

    /** Copies {@code src} (position to limit) in, waiting for room as needed; consumes it. */
    void write(ByteBuffer src) {
        while (src.hasRemaining()) {
            int n = awaitRoom(src.remaining());
            region.put(DATA + (int) (tail & mask), src, src.position(), n);
            src.position(src.position() + n);
            LONGS.setRelease(region, TAIL, tail += n);
        }
    }

    /** Writes an 8-byte record header: length then op, as {@link Frames}. */
    void writeHeader(ByteBuffer scratch, int length, int op) {
        write(scratch.clear().putInt(length).putInt(op).flip());
    }

    /** @return contiguous free bytes at the tail, between 1 and {@code wanted}, after waiting for at least one */
    private int awaitRoom(int wanted) {
        long deadline = 0;
        int spins = 0;
        while (tail - headSeen == capacity) {
            headSeen = (long) LONGS.getAcquire(region, HEAD);
            if (tail - headSeen < capacity) {
                break;
            }
            Thread.onSpinWait();
            if ((++spins & 0xFFF) == 0) {
                deadline = deadline == 0 ? Deadline.forReply() : deadline;
                Deadline.check(deadline, "room in the raw-shm ring");
            }
        }
        int free = (int) (capacity - (tail - headSeen));
        int toEnd = capacity - (int) (tail & mask);
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

    /** Moves {@code n} bytes from this ring (as its consumer) into {@code out} (as its producer), copying once. */
    void transferTo(RawShmRing out, int n) {
        while (n > 0) {
            int take = awaitBytes(n);
            int room = out.awaitRoom(take);
            out.region.put(DATA + (int) (out.tail & out.mask), region, DATA + (int) (head & mask), room);
            LONGS.setRelease(out.region, TAIL, out.tail += room);
            LONGS.setRelease(region, HEAD, head += room);
            n -= room;
        }
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
