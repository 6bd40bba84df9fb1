package io.polylink.core.internal.observe;

import io.polylink.Statistics;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Exact counters behind a {@link Statistics} snapshot, counted with no locked instruction by the
 * threads that count most.
 *
 * <p>Every RSR is counted four times on each side (startpoint or endpoint, and context; messages
 * and bytes), too often for an atomic add each (docs/performance-notes.md#flow-constants). Here
 * each of the first {@link #OWNED} threads to count gets a cell of its own and is its only
 * writer, so an ordered store does what an atomic add would. Threads beyond those, and errors,
 * share one cell and add atomically.
 */
public final class Counters {

    /** Cells a counter hands out: the sending or receiving threads of one endpoint or startpoint. */
    public static final int OWNED = 4;
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Cell[].class);

    private final Cell[] owned = new Cell[OWNED];
    private final Cell shared = new Cell(-1);

    /** One thread's counts, or (owner -1) everyone else's. */
    private static final class Cell {
        private static final VarHandle MESSAGES_SENT;
        private static final VarHandle BYTES_SENT;
        private static final VarHandle MESSAGES_RECEIVED;
        private static final VarHandle BYTES_RECEIVED;
        private static final VarHandle ERRORS;

        static {
            try {
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                MESSAGES_SENT = lookup.findVarHandle(Cell.class, "messagesSent", long.class);
                BYTES_SENT = lookup.findVarHandle(Cell.class, "bytesSent", long.class);
                MESSAGES_RECEIVED = lookup.findVarHandle(Cell.class, "messagesReceived", long.class);
                BYTES_RECEIVED = lookup.findVarHandle(Cell.class, "bytesReceived", long.class);
                ERRORS = lookup.findVarHandle(Cell.class, "errors", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        /** The id of the thread that writes this cell; ids are never reused. */
        final long owner;
        private long messagesSent;
        private long bytesSent;
        private long messagesReceived;
        private long bytesReceived;
        private long errors;

        Cell(long owner) {
            this.owner = owner;
        }

        /** Owner only. */
        void sent(int bytes) {
            MESSAGES_SENT.setRelease(this, messagesSent + 1);
            BYTES_SENT.setRelease(this, bytesSent + bytes);
        }

        /** Owner only. */
        void received(int bytes) {
            MESSAGES_RECEIVED.setRelease(this, messagesReceived + 1);
            BYTES_RECEIVED.setRelease(this, bytesReceived + bytes);
        }

        void sentShared(int bytes) {
            MESSAGES_SENT.getAndAdd(this, 1L);
            BYTES_SENT.getAndAdd(this, (long) bytes);
        }

        void receivedShared(int bytes) {
            MESSAGES_RECEIVED.getAndAdd(this, 1L);
            BYTES_RECEIVED.getAndAdd(this, (long) bytes);
        }

        void errorShared() {
            ERRORS.getAndAdd(this, 1L);
        }

        Statistics addTo(Statistics sum) {
            return new Statistics(
                sum.messagesSent() + (long) MESSAGES_SENT.getAcquire(this),
                sum.bytesSent() + (long) BYTES_SENT.getAcquire(this),
                sum.messagesReceived() + (long) MESSAGES_RECEIVED.getAcquire(this),
                sum.bytesReceived() + (long) BYTES_RECEIVED.getAcquire(this),
                sum.errors() + (long) ERRORS.getAcquire(this));
        }
    }

    public void sent(int bytes) {
        Cell mine = mine();
        if (mine != null) {
            mine.sent(bytes);
        } else {
            shared.sentShared(bytes);
        }
    }

    public void received(int bytes) {
        Cell mine = mine();
        if (mine != null) {
            mine.received(bytes);
        } else {
            shared.receivedShared(bytes);
        }
    }

    public void error() {
        shared.errorShared();
    }

    /**
     * @return the calling thread's cell, taking a free one if it has none, or {@code null} once all
     *     are taken by other threads
     */
    private Cell mine() {
        long me = Thread.currentThread().getId();
        int start = (int) me & (OWNED - 1);
        for (int n = 0; n < OWNED; n++) {
            int i = (start + n) & (OWNED - 1);
            Cell cell = (Cell) SLOT.getAcquire(owned, i);
            if (cell == null) {
                Cell claimed = new Cell(me);
                if (SLOT.compareAndSet(owned, i, null, claimed)) {
                    return claimed;
                }
                cell = (Cell) SLOT.getAcquire(owned, i);
            }
            if (cell.owner == me) {
                return cell;
            }
        }
        return null;
    }

    public Statistics snapshot() {
        Statistics sum = shared.addTo(Statistics.ZERO);
        for (int i = 0; i < OWNED; i++) {
            Cell cell = (Cell) SLOT.getAcquire(owned, i);
            if (cell != null) {
                sum = cell.addTo(sum);
            }
        }
        return sum;
    }
}
