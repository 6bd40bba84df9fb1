package io.polylink.method.tcp.internal.connection;

import io.polylink.ContextId;

/** Who holds a method's connections, and hears what happens to them; called from any thread. */
public interface ConnectionListener {

    /** The connection closed, for whatever reason; it holds nothing any more but its counts. */
    void closed(TcpConnection connection);

    /** A connection to {@code peer} was closed because the peer was silent for {@code failureTimeoutMs}. */
    void silent(ContextId peer, int failureTimeoutMs);
}
