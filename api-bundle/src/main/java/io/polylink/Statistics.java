package io.polylink;

/**
 * A snapshot of counters, and of how much waits to be sent.
 *
 * @param messagesSent RSRs (or frames, for a method) sent
 * @param bytesSent payload bytes sent
 * @param messagesReceived RSRs received
 * @param bytesReceived payload bytes received
 * @param errors failures counted: failed sends, bad frames, unknown endpoints or handlers,
 *     handlers that threw
 * @param queuedBytes the queue depth now, not a count: bytes accepted for sending that the
 *     connection has not yet handed on (for a method, the sum over its open connections); 0
 *     where nothing is queued, as for contexts, startpoints and endpoints
 */
public record Statistics(
    long messagesSent, long bytesSent, long messagesReceived, long bytesReceived, long errors, long queuedBytes) {

    /** All zero. */
    public static final Statistics ZERO = new Statistics(0, 0, 0, 0, 0);

    /** Counters of something that queues nothing. */
    public Statistics(long messagesSent, long bytesSent, long messagesReceived, long bytesReceived, long errors) {
        this(messagesSent, bytesSent, messagesReceived, bytesReceived, errors, 0);
    }

    /**
     * @param other another snapshot
     * @return the field-wise sum
     */
    public Statistics plus(Statistics other) {
        return new Statistics(
            messagesSent + other.messagesSent, bytesSent + other.bytesSent,
            messagesReceived + other.messagesReceived, bytesReceived + other.bytesReceived,
            errors + other.errors, queuedBytes + other.queuedBytes);
    }
}
