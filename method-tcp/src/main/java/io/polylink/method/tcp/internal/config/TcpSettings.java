package io.polylink.method.tcp.internal.config;

import static io.polylink.spi.Configuration.requireRange;

import io.polylink.LinkException;
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
 * @param link the parameters a link may override
 */
public record TcpSettings(String bindAddress, int port, List<String> advertise, IdleStrategy idleStrategy,
                          int spinMicros, Link link) {

    /** The configuration PID. */
    public static final String PID = "io.polylink.method.tcp";

    /** @throws InvalidSettingException naming the key whose value is out of range */
    public TcpSettings {
        advertise = List.copyOf(advertise);
        requireRange(PID, "port", port, 0, 65535);
        requireRange(PID, "spinMicros", spinMicros, 0, Integer.MAX_VALUE);
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
            new Link(c.tcpNoDelay(), c.sendBuffer(), c.receiveBuffer(), c.queueLimit(), c.sendTimeoutMs(),
                c.connectTimeoutMs(), c.heartbeatIntervalMs(), c.failureTimeoutMs()));
    }

    /** @return these settings listening on {@code port} */
    public TcpSettings withPort(int port) {
        return new TcpSettings(bindAddress, port, advertise, idleStrategy, spinMicros, link);
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

        /**
         * The parameters an acceptor uses with a peer that asked for its own timers: it heartbeats
         * at the smaller interval and waits out the larger failure timeout of the two sides, so
         * neither declares a live peer dead.
         *
         * @param peerHeartbeatMs the peer's heartbeat interval, as its hello says
         * @param peerFailureMs the peer's failure timeout, as its hello says
         * @return these parameters with the timers agreed
         */
        public Link agreedWith(int peerHeartbeatMs, int peerFailureMs) {
            return new Link(tcpNoDelay, sendBuffer, receiveBuffer, queueLimit, sendTimeoutMs, connectTimeoutMs,
                Math.min(heartbeatIntervalMs, Math.max(1, peerHeartbeatMs)), Math.max(failureTimeoutMs, peerFailureMs));
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
