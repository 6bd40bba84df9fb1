package io.polylink.core.internal.config;

/** Which startpoints the system endpoint's echo and relay send to. */
public enum SystemTargets {
    /**
     * Only those whose contexts this context has a connection with, such as the asker's own: a
     * peer cannot make the context dial an address of the peer's choosing.
     */
    LINKED,
    /** Any startpoint, for relaying through a context to others it has not met. */
    ANY
}
