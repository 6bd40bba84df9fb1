package io.polylink.method.tcp.internal.config;

import io.polylink.method.tcp.internal.loop.IdleStrategy;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.AttributeType;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Configuration of the tcp method, PID {@value TcpSettings#PID}: every key and its default, once.
 * Read through {@link TcpSettings#read}.
 */
@ObjectClassDefinition(name = "Polylink tcp method")
public @interface TcpConfig {

    @AttributeDefinition(description = "Address to listen on; 0.0.0.0 for all interfaces")
    String bindAddress() default "0.0.0.0";

    @AttributeDefinition(description = "Port to listen on; 0 for an ephemeral port")
    int port() default 0;

    @AttributeDefinition(description = "Hosts to advertise in the descriptor, in order; empty: derived "
        + "from the bind address")
    String[] advertise() default {};

    @AttributeDefinition(description = "I/O thread when idle: spin, spin-then-block or block")
    IdleStrategy idleStrategy() default IdleStrategy.SPIN_THEN_BLOCK;

    @AttributeDefinition(description = "How long spin-then-block polls after the last work, in microseconds, at "
        + "most: after each sleep of 10 ms or more the next spin is half as long, down to 20")
    int spinMicros() default 500;

    @AttributeDefinition(description = "How long the I/O thread naps between its turns while application threads "
        + "receive through Context.progress(), in microseconds: it takes over this long after they stop calling, "
        + "and 50 us after they hand receiving back (Context.handBackReceiving()) unless they come back")
    int standBackMicros() default 500;

    @AttributeDefinition(type = AttributeType.PASSWORD, required = false,
        description = "Pre-shared key, base64, at least 32 bytes: each side of a connection proves it holds "
            + "it in the handshake, and a node with a key connects only with nodes that hold the same. Or use pskFile")
    String psk() default "";

    @AttributeDefinition(required = false, description = "File holding the pre-shared key in base64; instead of psk")
    String pskFile() default "";

    @AttributeDefinition(description = "The shortest heartbeat interval a peer may ask of this node, in ms")
    int minHeartbeatIntervalMs() default 50;

    @AttributeDefinition(description = "The shortest failure timeout a peer may ask of this node, in ms")
    int minFailureTimeoutMs() default 200;

    @AttributeDefinition(description = "Bytes all connections together may hold for frames over 64 KiB "
        + "still arriving; a frame beyond it is refused and its connection closed")
    int largeFrameBudget() default 64 << 20;

    @AttributeDefinition(description = "Connections one remote address may have open to this node")
    int maxConnectionsPerSource() default 256;

    @AttributeDefinition(description = "Handshakes one remote address may have under way with this node")
    int maxHandshakesPerSource() default 16;

    @AttributeDefinition(description = "Disable Nagle's algorithm")
    boolean tcpNoDelay() default true;

    @AttributeDefinition(description = "SO_SNDBUF in bytes; 0 for the system default")
    int sendBuffer() default 0;

    @AttributeDefinition(description = "SO_RCVBUF in bytes; 0 for the system default")
    int receiveBuffer() default 0;

    @AttributeDefinition(description = "Bytes a connection may queue while its socket is full")
    int queueLimit() default 4 << 20;

    @AttributeDefinition(description = "How long a send waits for queue space, in ms; 0 fails at once")
    int sendTimeoutMs() default 5000;

    @AttributeDefinition(description = "Bound on connecting and on the handshake, in ms")
    int connectTimeoutMs() default 2000;

    @AttributeDefinition(description = "An idle connection sends a heartbeat this often, in ms")
    int heartbeatIntervalMs() default 250;

    @AttributeDefinition(description = "A peer silent this long is declared dead, in ms")
    int failureTimeoutMs() default 1000;
}
