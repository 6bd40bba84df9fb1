package io.polylink.method.tcp.internal.liveness;

import io.polylink.ContextId;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Peers that went silent: a connection to one was closed for want of heartbeats, or a dial to it
 * got no answer in time. A stopped or cut-off peer's kernel may still accept a dial, so dialling
 * it on a sender's thread would hold the sender for the whole connect timeout, at every send while
 * the peer stays silent (see docs/performance-notes.md#tcp-silent-peers). Dials to such a peer are refused at once instead; once the failure
 * timeout has passed, the next one asked for is made in the background, and the peer is reached
 * again when that one is answered or the peer dials this side. Not thread-safe: the method's
 * table of connections guards it with its lock.
 */
public final class SilentPeers {

    private static final class Silence {
        String why;
        long until;
        boolean dialling;
    }

    /**
     * A silence nobody asked to dial for this long is forgotten, so peers gone for good do not
     * pile up; the next send to such a peer dials it itself, once, and marks it again.
     */
    private static final long FORGET_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final Map<ContextId, Silence> peers = new HashMap<>();

    /** Refuses dials to {@code peer} for {@code nanos}, then lets one through in the background. */
    public void mark(ContextId peer, String why, long nanos) {
        long now = System.nanoTime();
        peers.values().removeIf(s -> !s.dialling && now - s.until > FORGET_NANOS);
        Silence s = peers.computeIfAbsent(peer, p -> new Silence());
        s.why = why;
        s.until = now + nanos;
        s.dialling = false;
    }

    /** The peer answered, dialled this side, or refused outright: dial it as any other. */
    public void forget(ContextId peer) {
        peers.remove(peer);
    }

    /**
     * @param dialInBackground started, once, when the peer is due to be dialled again
     * @return why a sender must not dial {@code peer} now, or {@code null} if it may
     */
    public String refusal(ContextId peer, Runnable dialInBackground) {
        Silence s = peers.get(peer);
        if (s == null) {
            return null;
        }
        long left = s.until - System.nanoTime();
        if (left <= 0 && !s.dialling) {
            s.dialling = true;
            dialInBackground.run();
        }
        return "context " + peer + " went silent (" + s.why + "); it is dialled in the background, not on the "
            + "sender's thread (" + (s.dialling ? "a dial is under way" : "next in " + TimeUnit.NANOSECONDS.toMillis(left)
            + " ms") + "), and reached again once it answers, or when it dials this context";
    }
}
