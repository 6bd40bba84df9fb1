package io.polylink.method.tcp.internal.connect;

import io.polylink.ContextId;
import java.util.Map;
import java.util.TreeMap;

/**
 * What makes two connections to one peer distinct: the peer, and the link parameters they were
 * made with, as a class number both sides agree on (the dialler's hello carries it).
 */
record ConnectionKey(ContextId peer, int connectionClass) {

    /** @return the key of a connection dialled with {@code parameters}: 0 for none, so plain links share one */
    static ConnectionKey dialled(ContextId peer, Map<String, String> parameters) {
        return new ConnectionKey(peer, parameters.isEmpty() ? 0 : new TreeMap<>(parameters).hashCode());
    }
}
