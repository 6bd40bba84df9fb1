package io.polylink.method.tcp.internal.connection;

/** A peer broke the protocol; the message says how. The connection is closed, not guessed at. */
final class ProtocolException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    ProtocolException(String message) {
        super(message, null, false, false);
    }
}
