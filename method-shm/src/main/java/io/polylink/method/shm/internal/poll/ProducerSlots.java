package io.polylink.method.shm.internal.poll;

import static io.polylink.method.shm.internal.segment.InboxLayout.*;

import io.polylink.LinkException;
import io.polylink.method.shm.internal.connect.Connections;
import io.polylink.method.shm.internal.connect.FrameAssembler;
import io.polylink.method.shm.internal.connect.ShmConnection;
import io.polylink.method.shm.internal.liveness.AbandonedClaims;
import io.polylink.method.shm.internal.liveness.Liveness;
import io.polylink.method.shm.internal.ring.Inbox;
import io.polylink.method.shm.internal.segment.Segment;
import io.polylink.spi.ProblemLog;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the poller knows of each producer slot of this context's inbox, and what it does with the
 * records that come from them: data goes to the slot's connection, a producer's first record
 * opens or matches one ({@link Connections#answer}), its last closes it and frees the slot. A
 * producer that cannot be answered is refused in its slot, which it sees and ends its connection.
 * Whatever a record's handling throws ends that slot's connection, not the poller. On the
 * poller's tick it frees the slots of producers whose process is gone, and it judges records left
 * unfinished ({@link AbandonedClaims}).
 *
 * <p>Poller thread only. One per inbox: a replaced inbox gets a fresh one.
 */
final class ProducerSlots implements Inbox.RecordHandler {

    /** What the poller knows of one producer slot. */
    private static final class SlotView {
        /** Where the slot's records go; {@code null} before its first record, and once its producer left. */
        FrameAssembler inbound;
        /** Tail when the slot's producer was found dead; the slot is freed once the head passes it. */
        long releaseAt = -1;
    }

    private final Segment segment;
    private final Inbox inbox;
    private final SlotView[] views;
    private final Connections connections;
    private final int unblockTimeoutMs;
    private final ProblemLog problems;
    private final AtomicLong errors;

    /** @param unblockTimeoutMs how long a record stays unfinished before it is skipped, for messages */
    ProducerSlots(Segment segment, Inbox inbox, Connections connections, int unblockTimeoutMs, ProblemLog problems,
                  AtomicLong errors) {
        this.segment = segment;
        this.inbox = inbox;
        this.connections = connections;
        this.unblockTimeoutMs = unblockTimeoutMs;
        this.problems = problems;
        this.errors = errors;
        SlotView[] fresh = new SlotView[segment.slots()];
        for (int i = 0; i < fresh.length; i++) {
            fresh[i] = new SlotView();
        }
        this.views = fresh;
    }

    @Override
    public void onRecord(int type, int flags, int slot, ByteBuffer body) {
        if (slot >= views.length) {
            errors.incrementAndGet();
            problems.warn("bad record", "shm inbox " + segment.path() + ": record for producer slot " + slot + " of "
                + views.length + " dropped", null);
            return;
        }
        SlotView view = views[slot];
        try {
            switch (type) {
                case TYPE_DATA -> {
                    FrameAssembler inbound = view.inbound;
                    if (inbound != null) {
                        inbound.onData(flags, body);
                    }
                }
                case TYPE_OPEN -> opened(slot, view, body.remaining() >= 8 ? body.getLong(body.position()) : 0);
                case TYPE_CLOSE -> {
                    FrameAssembler inbound = view.inbound;
                    view.inbound = null;
                    if (view.releaseAt < 0) {
                        segment.freeSlot(slot);
                    }
                    if (inbound != null) {
                        inbound.connection().closedByPeer();
                    }
                }
                default -> {
                    errors.incrementAndGet();
                    problems.warn("bad record", "shm inbox " + segment.path() + ": record of unknown type " + type
                        + " from slot " + slot + " dropped", null);
                }
            }
        } catch (Throwable t) {
            failed(slot, view, t);
            if (t instanceof InternalError) {
                throw t; // perhaps a fault on a mapping: the poller looks which, before reading on
            }
        }
    }

    /** Handling a record of {@code slot} threw: its frame is lost, so the slot's connection ends. */
    private void failed(int slot, SlotView view, Throwable t) {
        errors.incrementAndGet();
        FrameAssembler inbound = view.inbound;
        view.inbound = null;
        problems.warn("record failed", "shm inbox " + segment.path() + ": a record from slot " + slot + " failed ("
            + t + ")" + (inbound == null ? "" : "; closing " + inbound.connection()), t);
        if (inbound != null) {
            inbound.connection().fail(new IOException("a record from this peer could not be handled: " + t, t));
        }
    }

    /**
     * A producer's first record: its connection is the one it answers, or a new one. One that
     * cannot be answered is refused, rather than left sending into a slot nobody reads; it ends
     * its connection, and its links try again later.
     */
    private void opened(int slot, SlotView view, long ack) {
        view.inbound = null;
        try {
            ShmConnection connection = connections.answer(segment.slotPeer(slot), segment.slotSession(slot), ack,
                segment.slotAddress(slot), slot);
            view.inbound = connection == null ? null : connection.inbound();
        } catch (LinkException e) {
            segment.refuseSlot(slot); // Connections.answer logged why
        }
    }

    /**
     * On the poller's tick: lets go of connections that ended without their producer's last record
     * (it could not write it), which would keep their mapping of the peer's inbox; frees the slots
     * of producers that died, once what they wrote is consumed.
     */
    void tick() {
        for (int slot = 0; slot < views.length; slot++) {
            SlotView view = views[slot];
            if (view.inbound != null && !view.inbound.connection().isOpen()) {
                view.inbound = null; // its records would go nowhere: the connection stopped taking them
            }
            if (view.releaseAt >= 0) {
                if (inbox.head() - view.releaseAt >= 0) {
                    view.releaseAt = -1;
                    segment.freeSlot(slot);
                }
                continue;
            }
            long state = segment.slotState(slot);
            if (state == SLOT_FREE) {
                continue;
            }
            long pid = slotPid(state);
            if (Liveness.alive(pid, 0)) {
                continue;
            }
            FrameAssembler inbound = view.inbound;
            view.inbound = null;
            if (slotPhase(state) == SLOT_CLAIMED) {
                segment.casSlotState(slot, state, SLOT_FREE);
            } else {
                view.releaseAt = segment.tail();
            }
            if (inbound != null) {
                ShmConnection c = inbound.connection();
                errors.incrementAndGet();
                c.fail(new IOException("process " + pid + " of context " + c.peer() + " is gone"));
            }
        }
    }

    @Override
    public boolean abandoned(int slot) {
        if (slot >= 0) {
            return slot >= views.length || AbandonedClaims.byProducer(segment.slotState(slot));
        }
        return AbandonedClaims.headerless(views.length, segment::slotState);
    }

    @Override
    public void onSkipped(int slot, int bytes) {
        errors.incrementAndGet();
        String of = slot < 0 ? "" : "of slot " + slot + " ";
        problems.warn("stalled record", "shm inbox " + segment.path() + ": skipped a " + bytes + "-byte record " + of
            + "left unfinished for " + unblockTimeoutMs + " ms (its sender's process ended or was stopped "
            + "mid-write)", null);
        if (slot >= 0 && slot < views.length && views[slot].inbound != null) {
            // The frame it belonged to is lost: the connection cannot keep its promise of order.
            views[slot].inbound.connection().fail(new IOException("a record from this sender was skipped as stalled"));
        }
    }
}
