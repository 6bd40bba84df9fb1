package io.polylink.spi;

/**
 * Where the context at the other end of a connection runs, seen from this one. The constants go
 * from nearest to farthest, so {@code location.compareTo(SAME_SITE) >= 0} means "on another host".
 * A transform uses it for its scope: compress only off this host, encrypt only off this site.
 *
 * <p>Hosts are told apart by {@link HostIdentity}; sites are names a context is configured with
 * (by default each host is a site of its own). A peer says where it is when it opens a stack; it
 * can lie only about itself, and a context that must not trust that requires its stacks by scope.
 */
public enum PeerLocation {

    /** This very context: a connection of the {@code local} method. */
    SAME_CONTEXT,

    /** Another context on this host. */
    SAME_HOST,

    /** A context on another host of this site. */
    SAME_SITE,

    /** A context on another site, or one that did not say where it is. */
    OTHER_SITE;

    /** @return whether the peer runs on another host */
    public boolean offHost() {
        return compareTo(SAME_SITE) >= 0;
    }

    /** @return whether the peer runs on another site */
    public boolean offSite() {
        return this == OTHER_SITE;
    }
}
