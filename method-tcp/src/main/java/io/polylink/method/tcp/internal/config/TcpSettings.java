package io.polylink.method.tcp.internal;

import io.polylink.LinkException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The tcp method's parameters. Those in {@link #LINK_KEYS} may be overridden per link through
 * {@link io.polylink.Startpoint#parameter}; links with different overrides get different
 * connections.
 *
 * @param bindAddress the address to listen on; {@code 0.0.0.0} for all interfaces
 * @param port the port to listen on; 0 for an ephemeral one
 * @param advertise the hosts to put in the descriptor, in order; empty: derived from the bind
 *     address (all interface addresses for a wildcard, loopback last)
 * @param idleStrategy what the I/O thread does when idle
 * @param spinMicros how long {@link IdleStrategy#SPIN_THEN_BLOCK} polls after the last work
 * @param link the parameters a link may override
 */
record TcpSettings(String bindAddress, int port, List<String> advertise, IdleStrategy idleStrategy,
                   int spinMicros, Link link) {

    static final Set<String> LINK_KEYS = Set.of("tcpNoDelay", "sendBuffer", "receiveBuffer", "queueLimit",
        "sendTimeoutMs", "connectTimeoutMs", "heartbeatIntervalMs", "failureTimeoutMs");

    static final TcpSettings DEFAULTS = new TcpSettings("0.0.0.0", 0, List.of(), IdleStrategy.SPIN_THEN_BLOCK,
        500, new Link(true, 0, 0, 4 << 20, 5000, 2000, 250, 1000));

    TcpSettings {
        advertise = List.copyOf(advertise);
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("tcp port " + port + " is outside 0..65535");
        }
        if (spinMicros < 0) {
            throw new IllegalArgumentException("spinMicros must not be negative");
        }
    }

    /**
     * Per-connection parameters.
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
    record Link(boolean tcpNoDelay, int sendBuffer, int receiveBuffer, int queueLimit, int sendTimeoutMs,
                int connectTimeoutMs, int heartbeatIntervalMs, int failureTimeoutMs) {

        Link {
            check("sendBuffer", sendBuffer, 0);
            check("receiveBuffer", receiveBuffer, 0);
            check("queueLimit", queueLimit, 1024);
            check("sendTimeoutMs", sendTimeoutMs, 0);
            check("connectTimeoutMs", connectTimeoutMs, 1);
            check("heartbeatIntervalMs", heartbeatIntervalMs, 1);
            check("failureTimeoutMs", failureTimeoutMs, 1);
            if (heartbeatIntervalMs >= failureTimeoutMs) {
                throw new IllegalArgumentException("heartbeatIntervalMs (" + heartbeatIntervalMs
                    + ") must be below failureTimeoutMs (" + failureTimeoutMs + ")");
            }
        }

        private static void check(String name, int value, int min) {
            if (value < min) {
                throw new IllegalArgumentException("tcp parameter " + name + "=" + value + " is below " + min);
            }
        }

        /**
         * @param overrides per-link values by key
         * @return these parameters with the overrides applied
         * @throws LinkException naming an unknown key or a bad value
         */
        Link with(Map<String, String> overrides) {
            if (overrides.isEmpty()) {
                return this;
            }
            for (String key : overrides.keySet()) {
                if (!LINK_KEYS.contains(key)) {
                    throw new LinkException("unknown tcp parameter '" + key + "'; known: "
                        + LINK_KEYS.stream().sorted().toList());
                }
            }
            try {
                return new Link(
                    Boolean.parseBoolean(overrides.getOrDefault("tcpNoDelay", Boolean.toString(tcpNoDelay))),
                    integer(overrides, "sendBuffer", sendBuffer), integer(overrides, "receiveBuffer", receiveBuffer),
                    integer(overrides, "queueLimit", queueLimit), integer(overrides, "sendTimeoutMs", sendTimeoutMs),
                    integer(overrides, "connectTimeoutMs", connectTimeoutMs),
                    integer(overrides, "heartbeatIntervalMs", heartbeatIntervalMs),
                    integer(overrides, "failureTimeoutMs", failureTimeoutMs));
            } catch (IllegalArgumentException e) {
                throw new LinkException("bad tcp parameter: " + e.getMessage(), e);
            }
        }

        private static int integer(Map<String, String> overrides, String key, int fallback) {
            String value = overrides.get(key);
            if (value == null) {
                return fallback;
            }
            try {
                return Integer.parseInt(value.strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(key + "='" + value + "' is not an integer");
            }
        }
    }
}
