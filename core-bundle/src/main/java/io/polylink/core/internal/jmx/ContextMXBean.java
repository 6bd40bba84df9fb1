package io.polylink.core.internal.jmx;

/** The statistics of one context, as JMX shows them ({@code io.polylink:type=Context,context=<id>}). */
public interface ContextMXBean {

    /** @return the context id */
    String getId();

    /** @return the name the context is published under; empty for none */
    String getName();

    /** @return the methods installed, {@code local} included */
    String[] getMethods();

    /** @return the transforms installed */
    String[] getTransforms();

    /** @return RSRs sent */
    long getMessagesSent();

    /** @return payload bytes sent */
    long getBytesSent();

    /** @return RSRs received */
    long getMessagesReceived();

    /** @return payload bytes received */
    long getBytesReceived();

    /** @return failures counted: failed sends, bad frames, unknown endpoints or handlers, handlers that threw */
    long getErrors();

    /** @return the links (flows) to peers there are now */
    int getLinks();

    /** @return round trips timed on the acknowledgements of every link there is now */
    long getRoundTrips();

    /** @return the median round trip of those, in microseconds; 0 with none */
    double getRoundTripP50Micros();

    /** @return the 99th percentile round trip of those, in microseconds; 0 with none */
    double getRoundTripP99Micros();
}
