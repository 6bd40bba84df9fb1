package io.polylink.method.shm.internal.liveness;

import static io.polylink.method.shm.internal.segment.InboxLayout.SLOT_ACTIVE;
import static io.polylink.method.shm.internal.segment.InboxLayout.SLOT_REFUSED;
import static io.polylink.method.shm.internal.segment.InboxLayout.STATE_ABANDONED;
import static io.polylink.method.shm.internal.segment.InboxLayout.STATE_CLOSED;
import static io.polylink.method.shm.internal.segment.InboxLayout.slotPhase;
import static io.polylink.method.shm.internal.segment.InboxLayout.slotState;

import io.polylink.ContextId;
import io.polylink.method.shm.internal.segment.Segment;
import io.polylink.spi.ProblemLog;
import java.util.concurrent.TimeUnit;

/**
 * A sender's judgement of its receiver, made from the receiver's inbox. Dead: the inbox was cut
 * short (asked of the file's descriptor first, so the judgement never touches a page that is
 * gone), closed or abandoned, the receiver refused or released this sender's slot, the owner's
 * process is gone, or it has been stopped (by a signal or a debugger) while neither its heartbeat
 * nor its head moved for the failure timeout. A process that runs is never declared dead for
 * being silent: a loaded host can leave its poller without a core, or a collection pause hold it,
 * for longer than the timeout, and it goes on afterwards; that is said once in the log, and
 * senders meanwhile meet a full ring (backpressure) rather than a closed link.
 *
 * <p>One per connection; {@link #check} on the heartbeat timer's thread only.
 */
public final class ReceiverWatch {

    private final ContextId peer;
    private final Segment inbox;
    private final int slot;
    private final long slotActive;
    private final long failureNanos;
    private final ProblemLog problems;
    /** The inbox's heartbeat plus head as last seen, and when it last moved. */
    private long lastBeat = -1;
    private long lastBeatAt = System.nanoTime();
    private boolean silenceLogged;

    /**
     * @param inbox the receiver's inbox, as this sender mapped it
     * @param slot this sender's producer slot there
     * @param failureNanos how long a stopped receiver may stand still before it counts as dead
     */
    public ReceiverWatch(ContextId peer, Segment inbox, int slot, long failureNanos, ProblemLog problems) {
        this.peer = peer;
        this.inbox = inbox;
        this.slot = slot;
        this.slotActive = slotState(ProcessHandle.current().pid(), SLOT_ACTIVE);
        this.failureNanos = failureNanos;
        this.problems = problems;
    }

    /**
     * @return why this sender's slot in the receiver's inbox is no longer its to write, or {@code
     *     null}: the receiver refused it (it could not answer) or released it. Any thread.
     */
    public String slotLost() {
        long mine = inbox.slotState(slot);
        if (mine == slotActive) {
            return null;
        }
        return slotPhase(mine) == SLOT_REFUSED
            ? "context " + peer + " could not answer this connection (its log says why); links use another method "
                + "and try shm again later"
            : "context " + peer + " released this connection's producer slot " + slot;
    }

    /**
     * @return why the receiver gave up the inbox this sender mapped, or {@code null}: it was cut
     *     short (asked of the file's descriptor, before any page of it is read), or its owner
     *     abandoned it for a fresh one. Any thread.
     */
    public String inboxGivenUp() {
        if (!inbox.intact()) {
            return "inbox " + inbox + " of context " + peer + " was cut short to " + inbox.fileSize() + " bytes while "
                + "mapped (" + inbox.length() + "); its owner makes a fresh one";
        }
        if (inbox.state() == STATE_ABANDONED) {
            return "context " + peer + " abandoned its inbox " + inbox + " (its log says why) and makes a fresh one";
        }
        return null;
    }

    /**
     * @return whether the receiver closed its inbox in order: its goodbye is in this side's inbox,
     *     or on the way, so the connection ends as in order, whichever comes first
     */
    public boolean closedInOrder() {
        return inbox.state() == STATE_CLOSED && inboxGivenUp() == null;
    }

    /**
     * @param now {@link System#nanoTime()}
     * @return why the receiver's inbox can no longer be written, or {@code null} if it is alive or
     *     {@linkplain #closedInOrder closed in order}
     */
    public String check(long now) {
        String givenUp = inboxGivenUp();
        if (givenUp != null) {
            return givenUp;
        }
        String lost = slotLost();
        if (lost != null) {
            return lost;
        }
        // Both only grow: the sum moves if the poller beat or consumed. A peer that moved since the
        // last look ran then; the process table, whose reading costs more than a beat does, is
        // asked only of one that did not, so a killed peer is found a beat later.
        long beat = inbox.heartbeatCount() + inbox.head();
        if (beat != lastBeat) {
            lastBeat = beat;
            lastBeatAt = now;
            silenceLogged = false;
            return null;
        }
        long pid = inbox.ownerPid();
        if (!Liveness.alive(pid, inbox.ownerStart())) {
            return "process " + pid + " of context " + peer + " is gone";
        }
        long silentMs = TimeUnit.NANOSECONDS.toMillis(now - lastBeatAt);
        if (now - lastBeatAt <= failureNanos) {
            return null;
        }
        if (Liveness.stopped(pid)) {
            return "process " + pid + " of context " + peer + " is stopped: no heartbeat and no progress in its "
                + "inbox for " + silentMs + " ms";
        }
        if (!silenceLogged) {
            silenceLogged = true;
            problems.warn("silent receiver", 20, "shm connection to " + peer + " at " + inbox + ": no heartbeat and "
                + "no progress in the peer's inbox for " + silentMs + " ms, but its process " + pid + " runs (a "
                + "loaded host, a pause, or a handler that holds its poller); the link stays open", null);
        }
        return null;
    }
}
