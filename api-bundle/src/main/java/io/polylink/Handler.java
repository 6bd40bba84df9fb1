package io.polylink;

import org.osgi.annotation.versioning.ConsumerType;

/** Code that runs at an endpoint when a remote service request names it. */
@ConsumerType
@FunctionalInterface
public interface Handler {

    /**
     * Handles one RSR. An exception thrown here is counted and logged by the context; it never
     * stops the delivery of other RSRs.
     *
     * @param endpoint the endpoint the RSR was sent to
     * @param message the RSR's buffer, positioned at its first byte
     * @throws Exception if handling failed
     */
    void handle(Endpoint endpoint, MessageBuffer message) throws Exception;
}
