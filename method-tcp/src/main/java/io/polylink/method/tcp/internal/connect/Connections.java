package io.polylink.method.tcp.internal.connect;

import io.polylink.ContextId;
import io.polylink.Statistics;
import io.polylink.method.tcp.internal.connection.ConnectionListener;
import io.polylink.method.tcp.internal.connection.TcpConnection;
import io.polylink.method.tcp.internal.liveness.SilentPeers;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The method's connections, one per peer and set of link parameters, with what dialling and
 * accepting decide on together: the dials under way and the peers gone silent. It outlives a
 * stop and a start, and keeps the counts of the connections that closed.
 *
 * <p>Its monitor guards it. {@link Dialler} and {@link Acceptor} hold it across a decision and the
 * publication of what they decided, calling the package's methods marked "monitor held"; the
 * public methods take it themselves, briefly.
 */
public final class Connections implements ConnectionListener {

    private final Map<ConnectionKey, TcpConnection> established = new HashMap<>();
    /** {@code established.size()}, for threads that must not take the monitor. Written under it. */
    private volatile int count;
    private final Set<ConnectionKey> dialling = new HashSet<>();
    /** The connections peers dialled, until they close, and how many there are by remote address. */
    private final Set<TcpConnection> accepted = new HashSet<>();
    private final Map<InetAddress, Integer> acceptedFrom = new HashMap<>();
    private final SilentPeers silent = new SilentPeers();
    /**
     * Set by {@link #stop} as it takes the connections to close: a dial or an accept finishing
     * later closes its socket instead of adding a connection nobody would close.
     */
    private boolean stopped;
    private final Object totalsLock = new Object();
    private Statistics closedTotals = Statistics.ZERO;

    /** Takes connections again after a {@link #stop}. */
    public synchronized void start() {
        stopped = false;
    }

    /**
     * Takes no more connections, and wakes dials waiting for a peer's.
     *
     * @return the connections to close
     */
    public synchronized List<TcpConnection> stop() {
        stopped = true;
        notifyAll();
        return new ArrayList<>(established.values());
    }

    /** @return the connections now, open or closing */
    public synchronized List<TcpConnection> snapshot() {
        return new ArrayList<>(established.values());
    }

    /** @return whether any connection is established, open or closing; takes no lock */
    public boolean any() {
        return count > 0;
    }

    /** @return how many connections are open */
    public synchronized int openCount() {
        return (int) established.values().stream().filter(TcpConnection::isOpen).count();
    }

    /** @return the counts of every connection, open or closed since the method was made */
    public Statistics statistics() {
        Statistics closed;
        synchronized (totalsLock) {
            closed = closedTotals;
        }
        return snapshot().stream().map(TcpConnection::statistics).reduce(closed, Statistics::plus);
    }

    @Override
    public void closed(TcpConnection connection) {
        synchronized (this) {
            established.remove(new ConnectionKey(connection.peer(), connection.connectionClass()), connection);
            count = established.size();
            if (accepted.remove(connection)) {
                acceptedFrom.computeIfPresent(connection.remote().getAddress(), (source, n) -> n == 1 ? null : n - 1);
            }
        }
        synchronized (totalsLock) {
            closedTotals = closedTotals.plus(connection.statistics());
        }
    }

    /** A connection to {@code peer} was closed for silence: see {@link SilentPeers}. */
    @Override
    public synchronized void silent(ContextId peer, int failureTimeoutMs) {
        silent.mark(peer, "no heartbeat for " + failureTimeoutMs + " ms", TimeUnit.MILLISECONDS.toNanos(failureTimeoutMs));
    }

    /** Monitor held. @return whether {@link #stop} came last */
    boolean stopped() {
        return stopped;
    }

    /** Monitor held. @return the open connection of {@code key}, or {@code null} */
    TcpConnection open(ConnectionKey key) {
        TcpConnection c = established.get(key);
        return c != null && c.isOpen() ? c : null;
    }

    /** Monitor held. @return whether this side is dialling {@code key} */
    boolean dialling(ConnectionKey key) {
        return dialling.contains(key);
    }

    /** Monitor held: a dial of {@code key} begins. */
    void dialStarted(ConnectionKey key) {
        dialling.add(key);
    }

    /**
     * Monitor held: a dial of {@code key} ended. A peer none of whose addresses answered in time
     * is marked silent for {@code failureTimeoutMs}; any other outcome means it speaks.
     */
    void dialEnded(ConnectionKey key, boolean unanswered, int connectTimeoutMs, int failureTimeoutMs) {
        dialling.remove(key);
        if (unanswered) {
            silent.mark(key.peer(), "it answered no dial within " + connectTimeoutMs + " ms",
                TimeUnit.MILLISECONDS.toNanos(failureTimeoutMs));
        } else {
            silent.forget(key.peer());
        }
    }

    /**
     * Monitor held.
     *
     * @param dialInBackground started, once, when a silent peer is due to be dialled again
     * @return why a sender must not dial {@code peer} now, or {@code null} if it may
     */
    String refusal(ContextId peer, Runnable dialInBackground) {
        return silent.refusal(peer, dialInBackground);
    }

    /** Monitor held: {@code peer} dialled this side, so it speaks again. */
    void heard(ContextId peer) {
        silent.forget(peer);
    }

    /** Monitor held: {@code connection} is the one of {@code key} now; dials waiting for it wake. */
    void publish(ConnectionKey key, TcpConnection connection) {
        established.put(key, connection);
        count = established.size();
        if (connection.dialledByPeer() && accepted.add(connection)) {
            acceptedFrom.merge(connection.remote().getAddress(), 1, Integer::sum);
        }
        notifyAll();
    }

    /** Monitor held. @return how many connections dialled from {@code source} are open */
    int acceptedFrom(InetAddress source) {
        return acceptedFrom.getOrDefault(source, 0);
    }

    /**
     * Monitor held: waits for an open connection of {@code key} until {@code until}, or until stopped.
     *
     * @return the connection, or {@code null} if none came in time
     * @throws InterruptedException if interrupted meanwhile
     */
    TcpConnection awaitOpen(ConnectionKey key, long until) throws InterruptedException {
        while (true) {
            TcpConnection c = open(key);
            long left = until - System.nanoTime();
            if (c != null || left <= 0 || stopped) {
                return c;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
    }
}
