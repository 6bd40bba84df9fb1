package io.polylink.method.shm.internal.ring;

import static io.polylink.method.shm.internal.segment.InboxLayout.*;

import io.polylink.ContextId;
import io.polylink.method.shm.internal.segment.Segment;
import io.polylink.method.shm.internal.segment.SegmentException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

/**
 * One producer's view of a peer's inbox: its slot there, and the claim, write and commit of
 * records. Not thread-safe: its connection serialises the callers.
 *
 * <p>A record is claimed by advancing the shared tail with a compare-and-set, then its header is
 * set from zero to "length negative" (claimed), the body copied, and the header set to "length
 * positive" (committed) with a release, so the consumer, reading the header with acquire, never
 * sees a half-written body. Both header writes are compare-and-sets: if the consumer skipped the
 * record as stalled in between, the producer learns it and reports the loss.
 */
public final class Outbox implements AutoCloseable {

    /** No space now; the caller waits or gives up. */
    public static final int FULL = -1;
    /** A claim that lost this many races in a row looks whether the file was cut short. */
    private static final int CHECK_LOST = 1024;

    private final Segment segment;
    private final ByteBuffer ring;
    private final int capacity;
    private final int mask;
    private final int slot;
    private final long session;
    private final DatagramChannel wake;
    private final InetSocketAddress wakeTarget;
    private final ByteBuffer poke = ByteBuffer.allocate(1);
    private long headCache;

    /**
     * @throws IOException if the wake-up socket cannot be opened
     * @throws SegmentException if the inbox has no free slot
     */
    public Outbox(Segment segment, long session, ContextId self, byte[] selfAddress) throws IOException {
        this.segment = segment;
        this.ring = segment.ring().duplicate();
        this.capacity = segment.capacity();
        this.mask = capacity - 1;
        this.session = session;
        this.wakeTarget = new InetSocketAddress(InetAddress.getLoopbackAddress(), segment.wakePort());
        this.wake = DatagramChannel.open();
        this.wake.configureBlocking(false);
        this.slot = segment.claimSlot(session, self, selfAddress);
        if (slot < 0) {
            wake.close();
            throw new SegmentException("inbox " + segment + " has no free producer slot (all " + segment.slots()
                + " taken: too many contexts send to it)");
        }
    }

    public Segment segment() {
        return segment;
    }

    public long session() {
        return session;
    }

    /** @return this producer's slot in the inbox */
    public int slot() {
        return slot;
    }

    /** @return the largest record body */
    public int maxBody() {
        return maxRecord(capacity) - RECORD_HEADER;
    }

    /** @return bytes claimed and not yet consumed, as far as this producer can tell */
    public long used() {
        return segment.tail() - segment.head();
    }

    public int capacity() {
        return capacity;
    }

    /**
     * Claims space for a record with a body of {@code bodyLength} bytes and marks it claimed.
     *
     * @return the ring index of the record, {@link #FULL} if the ring has no room now
     * @throws SegmentException if the consumer skipped the claim before it could be marked
     */
    public int claim(int type, int flags, int bodyLength) {
        int length = RECORD_HEADER + bodyLength;
        int aligned = align(length);
        long tail;
        long next;
        int padding;
        for (int lost = 0; ; lost++) {
            tail = segment.tail();
            int index = (int) (tail & mask);
            int toEnd = capacity - index;
            padding = aligned > toEnd ? toEnd : 0;
            long need = aligned + padding;
            if (need > capacity - (tail - headCache)) {
                headCache = segment.head();
                if (need > capacity - (tail - headCache)) {
                    return FULL;
                }
            }
            next = tail + need;
            if (segment.casTail(tail, next)) {
                break;
            }
            if (lost % CHECK_LOST == CHECK_LOST - 1 && !segment.intact()) {
                // A compare-and-set on a page cut off the file fails without a word, every time.
                throw new SegmentException("inbox " + segment + " was cut short to " + segment.fileSize()
                    + " bytes while mapped (" + segment.length() + ")");
            }
        }
        int index = (int) (tail & mask);
        if (padding != 0) {
            // If this fails the consumer already padded the end itself, taking it for a dead claim.
            segment.casRecordHeader(index, 0L, header(TYPE_PADDING, 0, slot, padding));
            index = 0;
        }
        if (!segment.casRecordHeader(index, 0L, header(type, flags, slot, -length))) {
            throw revoked();
        }
        return index;
    }

    /** Copies {@code count} bytes from {@code source}'s position, moving it, to ring offset {@code at}. */
    public void put(int at, ByteBuffer source, int count) {
        ring.put(at, source, source.position(), count);
        source.position(source.position() + count);
    }

    public void putInt(int at, int value) {
        ring.putInt(at, value);
    }

    public void putLong(int at, long value) {
        ring.putLong(at, value);
    }

    /**
     * Publishes a claimed record, then wakes the consumer if it sleeps.
     *
     * @throws SegmentException if the consumer skipped the record as stalled meanwhile
     */
    public void commit(int index, int type, int flags, int bodyLength) {
        int length = RECORD_HEADER + bodyLength;
        if (!segment.casRecordHeader(index, header(type, flags, slot, -length), header(type, flags, slot, length))) {
            throw revoked();
        }
        if (segment.unpark()) {
            try {
                wake.send(poke.clear(), wakeTarget);
            } catch (IOException e) {
                // The consumer also polls on a timer; a lost poke costs latency, not the record.
            }
        }
    }

    /**
     * Gives up a record claimed but not committed, after a failure between the two: it becomes
     * padding, which the consumer passes over, so it does not hold up the ring for every producer.
     * Left alone if the file was cut short, where the header's page may be gone.
     */
    public void abandon(int index, int type, int flags, int bodyLength) {
        if (segment.intact()) {
            int length = RECORD_HEADER + bodyLength;
            segment.casRecordHeader(index, header(type, flags, slot, -length), header(TYPE_PADDING, 0, slot, length));
        }
    }

    private SegmentException revoked() {
        int state = segment.state();
        if (state != STATE_OPEN) {
            return new SegmentException("inbox " + segment + " was " + (state == STATE_CLOSED ? "closed" : "abandoned")
                + " by its owner while this process wrote a record to it");
        }
        return new SegmentException("a record to " + segment + " changed before it was committed: its receiver "
            + "skipped it as stalled (this process was stopped longer than the receiver's unblockTimeoutMs), or "
            + "something other than a producer wrote into the inbox");
    }

    /** Lets go of the wake-up socket and the inbox's file; the slot is the consumer's to free. */
    @Override
    public void close() {
        try {
            wake.close();
        } catch (IOException ignored) {
            // nothing held
        }
        segment.close();
    }
}
