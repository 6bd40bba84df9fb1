package io.polylink.core.internal.flow;

import io.polylink.LinkException;
import io.polylink.core.internal.buffer.MessageBufferImpl;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * RSRs that receiving threads handed to a flow's lock holder, in order, each with its own copy of
 * the message, and bounded: the holder may wait for the peer for seconds, and the peer may keep
 * sending what the handlers answer meanwhile. Any thread adds; the lock holder takes.
 */
final class HandOffs {

    /** What the RSRs waiting may hold, payloads and {@link #PER_HAND_OFF} each, before an add fails. */
    static final long MAX_BYTES = 4L << 20;
    private static final int PER_HAND_OFF = 128;

    /** An RSR a receiving thread handed off, and what it costs against {@link #MAX_BYTES}. */
    record HandOff(int endpoint, int handler, MessageBufferImpl message, long cost) {}

    private final ConcurrentLinkedQueue<HandOff> queue = new ConcurrentLinkedQueue<>();
    private final AtomicLong bytes = new AtomicLong();

    /**
     * Queues a copy of {@code message}.
     *
     * @param flow the flow, for the error
     * @throws LinkException if the RSRs waiting already hold {@value #MAX_BYTES} bytes
     */
    void add(Object flow, int endpoint, int handler, MessageBufferImpl message) {
        long cost = PER_HAND_OFF + message.length();
        if (bytes.addAndGet(cost) > MAX_BYTES) {
            bytes.addAndGet(-cost);
            throw new LinkException(flow + ": RSRs sent from inline handlers already wait for the sender that holds "
                + "the link (" + MAX_BYTES + " bytes), so this one is refused: an inline handler cannot wait "
                + "for it; give the handler Delivery.EXECUTOR to let it wait");
        }
        queue.add(new HandOff(endpoint, handler, message.sendableCopy(), cost));
    }

    /** @return the oldest RSR waiting, or {@code null} */
    HandOff poll() {
        HandOff h = queue.poll();
        if (h != null) {
            bytes.addAndGet(-h.cost());
        }
        return h;
    }

    boolean isEmpty() {
        return queue.isEmpty();
    }
}
