package io.polylink.core.internal.channel;

import io.polylink.core.internal.wire.Acknowledgement;
import io.polylink.core.internal.wire.ControlFrame;
import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The control frames one channel owes its peer: those receiving threads and transform sessions
 * queued (handshakes, refusals), then the acknowledgements of the flows it receives, which
 * allocate nothing. Any thread may add; only a holder of the channel's send lock writes them out,
 * ahead of the next frame it sends. Bounded: a peer that asks for answers (handshakes) and never
 * reads them cannot make the queue grow without end.
 */
final class ControlQueue {

    /** Frames besides acknowledgements that may wait; a channel's own few never come near it. */
    static final int MAX_QUEUED = 1024;

    private record Queued(ControlFrame kind, ByteBuffer payload) {}

    private final ConcurrentLinkedQueue<Queued> queued = new ConcurrentLinkedQueue<>();
    private final AtomicInteger size = new AtomicInteger();
    private final AckLane acks = new AckLane();
    /** The payload of the acknowledgement being written; under the send lock. */
    private final ByteBuffer ackPayload = ByteBuffer.allocate(Acknowledgement.LENGTH);

    /** @return whether the frame was queued; {@code false} if {@value #MAX_QUEUED} wait already */
    boolean add(ControlFrame kind, ByteBuffer payload) {
        if (size.incrementAndGet() > MAX_QUEUED) {
            size.decrementAndGet();
            return false;
        }
        queued.add(new Queued(kind, payload));
        return true;
    }

    /** The slot's flow owes its sender an acknowledgement. */
    void requestAck(AckLane.Slot slot) {
        acks.request(slot);
    }

    /** @return whether no control frame waits, acknowledgements included */
    boolean isEmpty() {
        return queued.isEmpty() && acks.isEmpty();
    }

    /** Writes everything, waiting for room as any sender may. Caller holds the send lock. */
    void flush(ChannelSender out) {
        Queued next;
        while ((next = poll()) != null) {
            out.writeControl(next.kind(), next.payload());
        }
        AckLane.Slot slot;
        while ((slot = acks.peek()) != null) {
            int sequence = slot.flow.acknowledgedUpTo();
            out.writeControl(ControlFrame.ACK, ackPayload(slot.flow, sequence));
            acks.sent(slot, sequence);
        }
    }

    /**
     * Writes what the connection takes without waiting, in order, and leaves the rest. Caller
     * holds the send lock.
     */
    void flushWithoutWaiting(ChannelSender out) {
        Queued next;
        while ((next = queued.peek()) != null && out.tryWriteControl(next.kind(), next.payload())) {
            poll();
        }
        AckLane.Slot slot;
        while (queued.isEmpty() && (slot = acks.peek()) != null) {
            int sequence = slot.flow.acknowledgedUpTo();
            if (!out.tryWriteControl(ControlFrame.ACK, ackPayload(slot.flow, sequence))) {
                break;
            }
            acks.sent(slot, sequence);
        }
    }

    /** The connection failed: its senders learn it from their own sends. Caller holds the send lock. */
    void clear() {
        while (poll() != null) {
            // dropped: the connection failed
        }
        acks.clear();
    }

    private Queued poll() {
        Queued q = queued.poll();
        if (q != null) {
            size.decrementAndGet();
        }
        return q;
    }

    private ByteBuffer ackPayload(InboundFlow flow, int sequence) {
        return Acknowledgement.write(ackPayload, flow.key().flow(), sequence);
    }
}
