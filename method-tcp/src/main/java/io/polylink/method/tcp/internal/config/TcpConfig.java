package io.polylink.method.tcp.internal.config;

import io.polylink.method.tcp.internal.loop.IdleStrategy;
import org.osgi.service.metatype.annotations.AttributeDefinition;
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

    @AttributeDefinition(description = "How long spin-then-block polls after the last work, in microseconds")
    int spinMicros() default 500;

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
