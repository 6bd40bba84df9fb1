package io.polylink.method.shm.internal.connect;

import io.polylink.ContextId;
import io.polylink.LinkException;
import io.polylink.Statistics;
import io.polylink.method.shm.internal.segment.SegmentException;
import io.polylink.spi.Connection;
import io.polylink.spi.ProblemLog;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The method's connections, one per peer context, and how the two sides of a pair settle on one:
 * a sender's thread connects, the poller answers a peer's first record, and a connection leaves
 * the table when it closes. One lock guards the table and is held while a connection is opened,
 * so a peer never gets two. No connection is made while this context has no inbox of its own:
 * the peer's answers would have nowhere to go.
 */
public final class Connections {

    /** How long connecting waits for the peer to take its first record, and perhaps refuse it. */
    private static final long ANSWER_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Object lock = new Object();
    private final Map<ContextId, ShmConnection> byPeer = new HashMap<>();
    private final Connector connector;
    private final Supplier<String> unavailable;
    private final ProblemLog problems;
    private final AtomicLong errors;
    /** What closed connections counted; guarded by {@link #lock}. */
    private Statistics closedTotals = Statistics.ZERO;
    /** Set once the method stops; guarded by {@link #lock}. */
    private boolean stopped;

    /**
     * @param unavailable why this context has no inbox now, or {@code null} if it has one
     * @param errors the method's error count, for connections that could not be answered or whose receiver died
     */
    public Connections(Connector connector, Supplier<String> unavailable, ProblemLog problems, AtomicLong errors) {
        this.connector = connector;
        this.unavailable = unavailable;
        this.problems = problems;
        this.errors = errors;
    }

    /**
     * @return the open connection to {@code peer}, or a new one that has sent its first record,
     *     which the peer took without refusing it or did not take within a second
     * @throws LinkException if the peer's inbox cannot be reached, the peer refused the
     *     connection, or the method is stopped
     */
    public Connection connect(ContextId peer, ShmAddress there) {
        ShmConnection connection;
        synchronized (lock) {
            ShmConnection existing = byPeer.get(peer);
            if (existing != null && existing.isOpen()) {
                return existing;
            }
            if (stopped) {
                throw new LinkException("the shm method is stopped");
            }
            String down = unavailable.get();
            if (down != null) {
                throw new LinkException("shm has no inbox here: " + down);
            }
            connection = open(peer, there, 0);
        }
        connection.sendOpen(0);
        connection.awaitAnswer(ANSWER_NANOS);
        return connection;
    }

    /**
     * A producer's first record, on the poller: match it to the connection it answers, or make one.
     *
     * @param from the producer's context
     * @param session the producer's session
     * @param ack the session of this context's that it answers, or 0
     * @param replyTo the producer's shm address, or {@code null} if its slot holds none that fits
     * @param slot the producer's slot, for messages
     * @return the connection its records go to, or {@code null}: it answers a session that has closed
     * @throws LinkException if it cannot be answered (logged here): its producer is to be refused
     */
    public ShmConnection answer(ContextId from, long session, long ack, byte[] replyTo, int slot) {
        ShmConnection target = null;
        ShmConnection replaced = null;
        LinkException refused = null;
        synchronized (lock) {
            ShmConnection current = byPeer.get(from);
            boolean live = current != null && current.isOpen();
            if (live && current.peerSession() == 0 && (ack == 0 || ack == current.outSession())) {
                current.adopt(session);
                target = current;
            } else if (ack != 0 && (!live || ack != current.outSession())) {
                // It answers a session of ours that has closed; our goodbye is on its way to it.
                target = null;
            } else {
                replaced = live ? current : null;
                if (replaced != null) {
                    byPeer.remove(from, replaced);
                }
                try {
                    if (replyTo == null) {
                        throw new SegmentException("producer slot " + slot + " holds no valid reply address");
                    }
                    target = open(from, ShmAddress.decode(replyTo), session);
                } catch (LinkException e) {
                    refused = e;
                }
            }
        }
        if (replaced != null) {
            replaced.fail(new IOException("context " + from + " opened a new shm session"));
        }
        if (refused != null) {
            errors.incrementAndGet();
            problems.warn("unanswered peer", 20, "shm: cannot answer context " + from + ": " + refused.getMessage()
                + "; its connection is refused, so its links use another method and try shm again later", null);
            throw refused;
        }
        return target;
    }

    /** Lock held. */
    private ShmConnection open(ContextId peer, ShmAddress there, long peerSession) {
        ShmConnection connection = connector.open(this, peer, there, peerSession);
        byPeer.put(peer, connection);
        return connection;
    }

    void closed(ShmConnection connection) {
        synchronized (lock) {
            byPeer.remove(connection.peer(), connection);
            closedTotals = closedTotals.plus(connection.statistics());
        }
    }

    /** Closes every connection for the same reason, as a corrupt inbox does, on the poller. */
    public void failAll(String why) {
        for (ShmConnection c : snapshot()) {
            c.fail(new IOException(why));
        }
    }

    /**
     * Fails each connection whose peer's inbox was cut short while mapped, without touching the
     * mapping again: after a fault met somewhere, a file's descriptor says which one it was.
     */
    public void failCutShort() {
        for (ShmConnection c : snapshot()) {
            if (c.isOpen() && !c.intact()) {
                errors.incrementAndGet();
                c.fail(new IOException(c.cutShort()));
            }
        }
    }

    /**
     * On the heartbeat timer: fails each connection whose receiver its {@link
     * io.polylink.method.shm.internal.liveness.ReceiverWatch} finds dead, and ends in order each
     * whose receiver closed in order (this timer may see that before the poller reads its goodbye).
     *
     * @param now {@link System#nanoTime()}
     */
    public void judgeReceivers(long now) {
        for (ShmConnection c : snapshot()) {
            if (c.isOpen() && c.watch().closedInOrder()) {
                c.closedByPeer();
                continue;
            }
            String dead = c.isOpen() ? c.watch().check(now) : null;
            if (dead != null) {
                errors.incrementAndGet();
                c.fail(new IOException(dead)); // the core logs why, naming the connection
            }
        }
    }

    /** Closes every connection; then none can be made. */
    public void closeAll() {
        for (ShmConnection c : snapshot()) {
            c.close();
        }
        synchronized (lock) {
            stopped = true;
        }
    }

    /** @return what every connection counted, closed ones included */
    public Statistics statistics() {
        Statistics total;
        synchronized (lock) {
            total = closedTotals;
        }
        for (ShmConnection c : snapshot()) {
            total = total.plus(c.statistics());
        }
        return total;
    }

    private List<ShmConnection> snapshot() {
        synchronized (lock) {
            return new ArrayList<>(byPeer.values());
        }
    }
}
