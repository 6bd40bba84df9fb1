package io.polylink.method.tcp.internal.loop;

import java.nio.channels.SelectionKey;

/**
 * What the I/O loop calls for a ready key; runs on the loop's thread, or on a caller receiving in
 * its place ({@link IoLoop#progress}), one at a time.
 */
public interface IoHandler {

    /**
     * @return whether this was traffic: the loop spins on after traffic, as more may follow soon,
     *     and may sleep at once after a heartbeat
     */
    boolean ready(SelectionKey key);

    /**
     * {@link #ready} or {@link #poll} threw {@code cause}, which the loop has logged: close what
     * this handler serves and tell whoever needs to know; the loop goes on with the others.
     * Must not throw.
     */
    void failed(Throwable cause);

    /** @return whether the loop may {@link #poll} this handler's channel instead of selecting */
    default boolean pollable() {
        return false;
    }

    /**
     * @return whether this handler's channel last sent in bulk, as the sending end of a stream of
     *     large frames does, which hears only acknowledgements: the loop then spins only briefly
     */
    default boolean sendsInBulk() {
        return false;
    }

    /**
     * @return whether a caller receiving in the loop's place ({@link IoLoop#progress}) may read
     *     this handler's channel, through {@link #poll}; everything else ready on it, and every
     *     channel whose handler says no, waits for the loop's own turn
     */
    default boolean drivable() {
        return false;
    }

    /**
     * Reads whatever came, without the selector's word that anything did: for a loop that spins
     * on the channel it last read, and for a caller receiving in the loop's place.
     *
     * @return whether traffic came, as for {@link #ready}
     */
    default boolean poll() {
        return false;
    }
}
