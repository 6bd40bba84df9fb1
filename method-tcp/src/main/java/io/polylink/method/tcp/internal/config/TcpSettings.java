package io.polylink.method.tcp.internal.config;

import static io.polylink.spi.Configuration.requireRange;

import io.polylink.LinkException;
import io.polylink.method.tcp.internal.auth.PreSharedKey;
import io.polylink.method.tcp.internal.loop.IdleStrategy;
import io.polylink.spi.Configuration;
import io.polylink.spi.InvalidSettingException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The tcp method's parameters, read from its configuration ({@link TcpConfig}) and checked. Those
 * of {@link Link} may be overridden per link through {@link io.polylink.Startpoint#parameter};
 * links with different overrides get different connections.
 *
 * @param bindAddress the address to listen on; {@code 0.0.0.0} for all interfaces
 * @param port the port to listen on; 0 for an ephemeral one
 * @param advertise the hosts to put in the descriptor, in order; empty: derived from the bind
 *     address (all interface addresses for a wildcard, loopback last)
 * @param idleStrategy what the I/O thread does when idle
 * @param spinMicros how long {@link IdleStrategy#SPIN_THEN_BLOCK} polls after the last work
 * @param standBackMicros how long the I/O thread naps between its turns while callers receive
 * @param link the parameters a link may override
 * @param limits the bounds this node sets on what its peers may make it hold
 * @param key the pre-shared key peers prove they hold; {@code null} for none
 */
public record TcpSettings(String bindAddress, int port, List<String> advertise, IdleStrategy idleStrategy,
                          int spinMicros, int standBackMicros, Link link, Limits limits, PreSharedKey key) {

    /** The configuration PID. */
    public static final String PID = "io.polylink.method.tcp";

    /** @throws InvalidSettingException naming the key whose value is out of range */
    public TcpSettings {
        advertise = List.copyOf(advertise);
        requireRange(PID, "port", port, 0, 65535);
        requireRange(PID, "spinMicros", spinMicros, 0, Integer.MAX_VALUE);
        requireRange(PID, "standBackMicros", standBackMicros, 1, 60_000_000);
    }

    /**
     * @param properties the configuration, keyed as in {@link TcpConfig}; absent keys take their
     *     defaults, and keys it does not declare are ignored
     * @return the settings
     * @throws InvalidSettingException naming the key whose value cannot be used
     */
    public static TcpSettings read(Map<String, ?> properties) {
        TcpConfig c = Configuration.read(PID, TcpConfig.class, properties);
        return new TcpSettings(c.bindAddress(), c.port(), List.of(c.advertise()), c.idleStrategy(), c.spinMicros(),
            c.standBackMicros(),
            new Link(c.tcpNoDelay(), c.sendBuffer(), c.receiveBuffer(), c.queueLimit(), c.sendTimeoutMs(),
                c.connectTimeoutMs(), c.heartbeatIntervalMs(), c.failureTimeoutMs()),
            new Limits(c.minHeartbeatIntervalMs(), c.minFailureTimeoutMs(), c.largeFrameBudget(),
                c.maxConnectionsPerSource(), c.maxHandshakesPerSource()),
            PreSharedKey.read(PID, c.psk(), c.pskFile()));
    }

    /**
     * The bounds a node sets on what a peer can make it hold; none can be moved by a peer.
     *
     * @param minHeartbeatIntervalMs the shortest heartbeat interval a peer may ask for
     * @param minFailureTimeoutMs the shortest failure timeout a peer may ask for
     * @param largeFrameBudget bytes all connections together may hold for large frames still arriving
     * @param maxConnectionsPerSource connections one remote address may have open here
     * @param maxHandshakesPerSource handshakes one remote address may have under way here
     */
    public record Limits(int minHeartbeatIntervalMs, int minFailureTimeoutMs, int largeFrameBudget,
                         int maxConnectionsPerSource, int maxHandshakesPerSource) {

        /** @throws InvalidSettingException naming the key whose value is out of range */
        public Limits {
            requireRange(PID, "minHeartbeatIntervalMs", minHeartbeatIntervalMs, 1, Integer.MAX_VALUE);
            requireRange(PID, "minFailureTimeoutMs", minFailureTimeoutMs, 2, Integer.MAX_VALUE);
            requireRange(PID, "largeFrameBudget", largeFrameBudget, 0, Integer.MAX_VALUE);
            requireRange(PID, "maxConnectionsPerSource", maxConnectionsPerSource, 1, Integer.MAX_VALUE);
            requireRange(PID, "maxHandshakesPerSource", maxHandshakesPerSource, 1, Integer.MAX_VALUE);
            if (minHeartbeatIntervalMs >= minFailureTimeoutMs) {
                throw new InvalidSettingException(PID, "minHeartbeatIntervalMs", minHeartbeatIntervalMs,
                    "below minFailureTimeoutMs (" + minFailureTimeoutMs + ")");
            }
        }

        /**
         * The timers of a connection whose other side asked for its own, the same rule on both
         * sides: the acceptor applies it to the dialler's hello, and the dialler to the acceptor's
         * answer. A peer may ask for a shorter failure timeout and heartbeat interval than
         * {@code own}, down to the floors here (or {@code own}'s, if lower), never for longer ones;
         * the interval stays below the timeout.
         *
         * @param own this side's parameters for the connection
         * @param heartbeatMs the interval the other side asked for, unsigned 32-bit
         * @param failureMs the failure timeout the other side asked for, unsigned 32-bit
         * @return {@code own} with the timers agreed
         */
        public Link agree(Link own, long heartbeatMs, long failureMs) {
            int failure = (int) clamp(failureMs, Math.min(minFailureTimeoutMs, own.failureTimeoutMs()),
                own.failureTimeoutMs());
            int heartbeat = (int) clamp(heartbeatMs, Math.min(minHeartbeatIntervalMs, own.heartbeatIntervalMs()),
                Math.min(own.heartbeatIntervalMs(), failure - 1));
            return new Link(own.tcpNoDelay(), own.sendBuffer(), own.receiveBuffer(), own.queueLimit(),
                own.sendTimeoutMs(), own.connectTimeoutMs(), heartbeat, failure);
        }

        private static long clamp(long value, long min, long max) {
            return Math.max(min, Math.min(max, value));
        }
    }

    /** @return these settings listening on {@code port} */
    public TcpSettings withPort(int port) {
        return new TcpSettings(bindAddress, port, advertise, idleStrategy, spinMicros, standBackMicros, link, limits,
            key);
    }

    /**
     * Per-connection parameters; each component is named as its configuration key.
     *
     * @param tcpNoDelay disable Nagle's algorithm
     * @param sendBuffer SO_SNDBUF in bytes; 0 for the system default
     * @param receiveBuffer SO_RCVBUF in bytes; 0 for the system default
     * @param queueLimit bytes a connection may queue while the socket is full
     * @param sendTimeoutMs how long a send waits for queue space; 0 fails at once
     * @param connectTimeoutMs bound on connecting and on the handshake, both ways
     * @param heartbeatIntervalMs an idle connection sends a heartbeat this often
     * @param failureTimeoutMs a peer silent this long is declared dead
     */
    public record Link(boolean tcpNoDelay, int sendBuffer, int receiveBuffer, int queueLimit, int sendTimeoutMs,
                       int connectTimeoutMs, int heartbeatIntervalMs, int failureTimeoutMs) {

        /** @throws InvalidSettingException naming the key whose value is out of range */
        public Link {
            requireRange(PID, "sendBuffer", sendBuffer, 0, Integer.MAX_VALUE);
            requireRange(PID, "receiveBuffer", receiveBuffer, 0, Integer.MAX_VALUE);
            requireRange(PID, "queueLimit", queueLimit, 1024, Integer.MAX_VALUE);
            requireRange(PID, "sendTimeoutMs", sendTimeoutMs, 0, Integer.MAX_VALUE);
            requireRange(PID, "connectTimeoutMs", connectTimeoutMs, 1, Integer.MAX_VALUE);
            requireRange(PID, "heartbeatIntervalMs", heartbeatIntervalMs, 1, Integer.MAX_VALUE);
            requireRange(PID, "failureTimeoutMs", failureTimeoutMs, 1, Integer.MAX_VALUE);
            if (heartbeatIntervalMs >= failureTimeoutMs) {
                throw new InvalidSettingException(PID, "heartbeatIntervalMs", heartbeatIntervalMs,
                    "below failureTimeoutMs (" + failureTimeoutMs + ")");
            }
        }

        /**
         * Reads the overrides as the configuration is read, on top of these parameters.
         *
         * @param overrides per-link values by key, as text
         * @return these parameters with the overrides applied
         * @throws LinkException naming an unknown key, or the key whose value cannot be used
         */
        public Link with(Map<String, String> overrides) {
            if (overrides.isEmpty()) {
                return this;
            }
            Map<String, Object> values = properties();
            for (String key : overrides.keySet()) {
                if (!values.containsKey(key)) {
                    throw new LinkException("unknown tcp parameter '" + key + "'; known: "
                        + values.keySet().stream().sorted().toList());
                }
            }
            values.putAll(overrides);
            try {
                return read(values).link();
            } catch (InvalidSettingException e) {
                throw new LinkException("bad tcp parameter: " + e.getMessage(), e);
            }
        }

        /** @return these parameters by configuration key; a fresh map */
        Map<String, Object> properties() {
            Map<String, Object> out = new HashMap<>();
            out.put("tcpNoDelay", tcpNoDelay);
            out.put("sendBuffer", sendBuffer);
            out.put("receiveBuffer", receiveBuffer);
            out.put("queueLimit", queueLimit);
            out.put("sendTimeoutMs", sendTimeoutMs);
            out.put("connectTimeoutMs", connectTimeoutMs);
            out.put("heartbeatIntervalMs", heartbeatIntervalMs);
            out.put("failureTimeoutMs", failureTimeoutMs);
            return out;
        }
    }
}
