package io.polylink.spi;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * A reversible byte transform stacked on a method: compression, encryption. Register an instance
 * as an OSGi service with the property {@link #NAME_PROPERTY} set to {@link #name()}.
 */
@ConsumerType
public interface Transform {

    /** Service property naming the transform. */
    String NAME_PROPERTY = "polylink.transform";

    /** @return the transform's name, as used in method stacks: {@code [a-z0-9-]{1,32}} */
    String name();

    /**
     * Opens the state the transform keeps for one connection (keys, counters, dictionaries). Both
     * ends open a session when the first frame of a stack using the transform goes either way, so
     * a session may start a key exchange here with {@link TransformPeer#sendHandshake}.
     *
     * @param peer the connection's ends and its handshake channel
     * @return a session used for every frame on that connection, in order
     */
    TransformSession open(TransformPeer peer);
}
