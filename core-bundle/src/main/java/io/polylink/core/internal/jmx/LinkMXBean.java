package io.polylink.core.internal.jmx;

/**
 * The statistics of one link (a flow to a peer), as JMX shows them
 * ({@code io.polylink:type=Link,context=<id>,link=<flow id>}).
 */
public interface LinkMXBean {

    /** @return the flow id, 16 hex digits, as {@code polylink:links} lists it */
    String getId();

    /** @return the peer's context id */
    String getPeer();

    /** @return the stack the link travels on now, {@code lz4/tcp} say, or {@code unbound} */
    String getStack();

    /** @return RSRs sent on the link; -1 if a sender held the link through the second a read waits */
    long getMessagesSent();

    /** @return RSRs sent and not yet acknowledged; -1 if a sender held the link through the second a read waits */
    int getUnacknowledged();

    /** @return round trips timed on the link's acknowledgements since it began */
    long getRoundTrips();

    /** @return their median, in microseconds; 0 with none */
    double getRoundTripP50Micros();

    /** @return their 99th percentile, in microseconds; 0 with none */
    double getRoundTripP99Micros();

    /** @return the longest, in microseconds; 0 with none */
    double getRoundTripMaxMicros();
}
