package io.polylink.method.tcp.internal.connection;

import io.polylink.method.tcp.internal.config.TcpSettings;
import io.polylink.method.tcp.internal.loop.IoLoop;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * A connection's clock: a heartbeat when nothing else went out for an interval (from the timer
 * thread), and the peer declared dead when it has been silent for the failure timeout or is
 * dribbling a frame (on the loop's tick, which also lets buffers unused for a while go).
 */
final class Liveness {

    /** A frame in flight may take this long per MiB beyond the failure timeout, for slow links. */
    private static final long NANOS_PER_MIB = TimeUnit.SECONDS.toNanos(1);
    /** Buffers grown for large frames go back to their first size after this long unused. */
    private static final long SPARE_IDLE_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long BUSY_BEAT_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final TcpConnection connection;
    private final Inbound in;
    private final Outbound out;
    private final TrafficCounts counts;
    private final ConnectionListener listener;
    private final int failureTimeoutMs;
    private final long failureNanos;
    private final long heartbeatNanos;

    Liveness(TcpConnection connection, Inbound in, Outbound out, TrafficCounts counts, ConnectionListener listener,
             TcpSettings.Link settings) {
        this.connection = connection;
        this.in = in;
        this.out = out;
        this.counts = counts;
        this.listener = listener;
        this.failureTimeoutMs = settings.failureTimeoutMs();
        this.failureNanos = TimeUnit.MILLISECONDS.toNanos(settings.failureTimeoutMs());
        this.heartbeatNanos = TimeUnit.MILLISECONDS.toNanos(settings.heartbeatIntervalMs());
    }

    /**
     * Sends a heartbeat if nothing else went out lately; from the method's timer thread.
     *
     * @return nanoseconds until this connection needs the timer again
     */
    long heartbeat(long now) {
        if (!out.isOpen()) {
            return Long.MAX_VALUE;
        }
        long quiet = now - out.lastSend();
        if (quiet < heartbeatNanos) {
            return heartbeatNanos - quiet;
        }
        return out.heartbeat(now) ? heartbeatNanos : BUSY_BEAT_RETRY_NANOS;
    }

    /**
     * Declares the peer dead if it has been silent too long or is dribbling a frame; on the loop.
     * Reads first, so a loop that was busy in a long handler does not blame the peer.
     *
     * @return nanoseconds until the next check is due: when the peer would have been silent too
     *     long, or a frame incomplete too long, and at the latest after {@link #SPARE_IDLE_NANOS},
     *     for buffers unused meanwhile
     */
    long check(long now) {
        if (!in.isOpen()) {
            return IoLoop.NO_TIMERS;
        }
        boolean shared = in.lockShared();
        try {
            return checkLocked(now);
        } finally {
            in.unlockShared(shared);
        }
    }

    private long checkLocked(long now) {
        in.releaseIdle(now, SPARE_IDLE_NANOS);
        out.releaseIdle(now, SPARE_IDLE_NANOS);
        long silence = now - in.lastReceive();
        long partialSince = in.partialSince();
        int partialLength = in.partialLength();
        long frameNanos = failureNanos + partialLength * NANOS_PER_MIB / (1 << 20);
        boolean silent = silence > failureNanos;
        boolean dribbling = partialSince != 0 && now - partialSince > frameNanos;
        if (!silent && !dribbling) {
            long due = Math.min(SPARE_IDLE_NANOS, failureNanos - silence);
            return partialSince == 0 ? due : Math.min(due, frameNanos - (now - partialSince));
        }
        try {
            if (silent && in.read() != Inbound.Read.NOTHING) {
                return 0; // bytes waited in the socket while the loop was away: look again soon
            }
        } catch (IOException | ProtocolException e) {
            counts.error();
            connection.fail(e);
            return IoLoop.NO_TIMERS;
        }
        String why = silent ? "peer silent for " + TimeUnit.NANOSECONDS.toMillis(silence) + " ms"
            : "a " + partialLength + "-byte frame still incomplete after "
                + TimeUnit.NANOSECONDS.toMillis(now - partialSince) + " ms";
        counts.error();
        if (silent) {
            listener.silent(connection.peer(), failureTimeoutMs);
        }
        connection.fail(new IOException(why));
        return IoLoop.NO_TIMERS;
    }
}
