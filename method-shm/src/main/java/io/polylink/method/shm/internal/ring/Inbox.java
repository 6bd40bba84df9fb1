package io.polylink.method.shm.internal.ring;

import static io.polylink.method.shm.internal.segment.InboxLayout.*;

import io.polylink.method.shm.internal.segment.Segment;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * The consumer's side of this context's own inbox: reads committed records in order, hands each to
 * a {@link RecordHandler} in place, then zeroes it and releases the space. Only the poller thread
 * calls {@link #poll}. Nothing is allocated per record.
 *
 * <p>A record claimed but not committed holds up everything behind it. {@link #checkStall}, which
 * the poller calls now and then while the ring looks empty, turns it into padding once it has
 * stayed so for the unblock timeout and the handler agrees its producer will never finish it; a
 * producer that was only slow finds its commit refused and reports the loss.
 *
 * <p>An empty {@link #poll} reads one word, the header at the head, and nothing the producers
 * write to when they claim: the consumer spinning on an empty ring takes no cache line away from
 * a producer.
 */
public final class Inbox {

    /** Takes one record; {@code body} (position to limit) is valid only during the call. */
    public interface RecordHandler {
        void onRecord(int type, int flags, int slot, ByteBuffer body);

        /** A stalled record was skipped; {@code slot} is -1 if its producer never wrote a header. */
        void onSkipped(int slot, int bytes);

        /**
         * @param slot the producer slot of a record left claimed, or -1 if its producer has not
         *     even written its header (it may be any producer)
         * @return whether that producer can no longer finish it (its process ended or is stopped),
         *     so the record may be skipped
         */
        boolean abandoned(int slot);
    }

    /** The ring holds something that is not a record: nothing after it can be trusted. */
    public static final class CorruptInboxException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CorruptInboxException(String message) {
            super(message, null, false, false);
        }
    }

    private final Segment segment;
    private final ByteBuffer view;
    private final int capacity;
    private final int mask;
    private final long unblockNanos;
    private final byte[] zeros = new byte[64 * 1024];
    /** Records up to this length are zeroed a word at a time, cheaper than a bulk copy's call. */
    private static final int SMALL_RECORD = 256;
    private long head;
    /** The head at which a claimed record was first seen unfinished, and when; -1 if none. */
    private long stallHead = -1;
    private long stallSince;

    public Inbox(Segment segment, int unblockTimeoutMs) {
        this.segment = segment;
        this.view = segment.ring().duplicate();
        this.capacity = segment.capacity();
        this.mask = capacity - 1;
        this.unblockNanos = TimeUnit.MILLISECONDS.toNanos(unblockTimeoutMs);
        this.head = segment.head();
    }

    public long head() {
        return head;
    }

    /**
     * Delivers up to {@code limit} committed records.
     *
     * @return how many records (padding included) were consumed
     * @throws CorruptInboxException if a record header is impossible
     */
    public int poll(RecordHandler handler, int limit) {
        int count = 0;
        while (count < limit) {
            int index = (int) (head & mask);
            long header = segment.recordHeader(index);
            int length = length(header);
            if (length <= 0) {
                break;
            }
            int aligned = align(length);
            if (length < RECORD_HEADER || aligned > capacity - index) {
                throw new CorruptInboxException("record at ring offset " + index + " claims " + length
                    + " bytes, " + (capacity - index) + " left before the end of the ring");
            }
            int type = type(header);
            if (type != TYPE_PADDING) {
                view.limit(index + length).position(index + RECORD_HEADER);
                handler.onRecord(type, flags(header), slot(header), view);
            }
            zero(index, aligned);
            head += aligned;
            segment.head(head);
            count++;
        }
        return count;
    }

    /** @return whether a committed record waits at the head */
    public boolean ready() {
        return length(segment.recordHeader((int) (head & mask))) > 0;
    }

    /** @return whether anything was claimed that has not been consumed, committed or not */
    public boolean pending() {
        return segment.tail() != head;
    }

    private void zero(int index, int length) {
        view.clear(); // absolute puts are bounded by the limit the record set
        if (length <= SMALL_RECORD) {
            for (int at = index, end = index + length; at < end; at += ALIGNMENT) {
                view.putLong(at, 0L);
            }
            return;
        }
        for (int at = index, end = index + length; at < end; at += zeros.length) {
            view.put(at, zeros, 0, Math.min(zeros.length, end - at));
        }
    }

    /**
     * Looks whether a claimed but unfinished record holds up the ring, and skips it once it has
     * for the unblock timeout and {@link RecordHandler#abandoned} says its producer will not
     * finish it. Called by the poller while polls find nothing, not on every poll.
     *
     * @param now {@link System#nanoTime()}
     * @param onTick whether this is the poller's tick (every 100 ms): only then is the shared tail
     *     read (a cache line the producers write), to find a claim whose producer has not written
     *     its header yet, and only then is the handler asked (it looks at processes)
     */
    public void checkStall(RecordHandler handler, long now, boolean onTick) {
        int index = (int) (head & mask);
        long header = segment.recordHeader(index);
        int length = length(header);
        if (length > 0) {
            return; // committed: the next poll takes it
        }
        if (length == 0 && (!onTick || segment.tail() == head)) {
            if (onTick || stallHead != head) {
                stallHead = -1; // empty, or nothing known about a claim here
            }
            return;
        }
        if (stallHead != head) {
            stallHead = head;
            stallSince = now;
        } else if (onTick && now - stallSince >= unblockNanos
                && handler.abandoned(length < 0 ? slot(header) : -1)) {
            stallHead = -1;
            unblock(handler, index, header, segment.tail());
        }
    }

    private void unblock(RecordHandler handler, int index, long header, long tail) {
        int length = length(header);
        if (length < 0) {
            int bytes = -length;
            if (segment.casRecordHeader(index, header, header(TYPE_PADDING, 0, 0, bytes))) {
                handler.onSkipped(slot(header), bytes);
            }
            return;
        }
        // Claimed, but the producer never wrote the header: the claim runs up to the next header
        // written after it (producers write the header before the body) or to the tail.
        int limit = (int) Math.min(capacity - index, tail - head);
        int end = index + RECORD_HEADER;
        while (end < index + limit && segment.recordHeader(end) == 0) {
            end += ALIGNMENT;
        }
        if (segment.casRecordHeader(index, 0L, header(TYPE_PADDING, 0, 0, end - index))) {
            handler.onSkipped(-1, end - index);
        }
    }
}
