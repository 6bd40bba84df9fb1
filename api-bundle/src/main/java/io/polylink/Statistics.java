package io.polylink;

/**
 * A snapshot of counters.
 *
 * @param messagesSent RSRs (or frames, for a method) sent
 * @param bytesSent payload bytes sent
 * @param messagesReceived RSRs received
 * @param bytesReceived payload bytes received
 * @param errors failures counted: failed sends, bad frames, unknown endpoints or handlers,
 *     handlers that threw
 */
public record Statistics(
    long messagesSent, long bytesSent, long messagesReceived, long bytesReceived, long errors) {

    /** All zero. */
    public static final Statistics ZERO = new Statistics(0, 0, 0, 0, 0);

    /**
     * @param other another snapshot
     * @return the field-wise sum
     */
    public Statistics plus(Statistics other) {
        return new Statistics(
            messagesSent + other.messagesSent, bytesSent + other.bytesSent,
            messagesReceived + other.messagesReceived, bytesReceived + other.bytesReceived,
            errors + other.errors);
    }
}
