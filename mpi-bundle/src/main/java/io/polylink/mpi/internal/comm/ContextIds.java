package io.polylink.mpi.internal.comm;

import java.util.HashSet;
import java.util.Set;

/**
 * This rank's context ids: the ones its communicators use and the ones it proposed for
 * communicators being created. Ids are even; a communicator's collective traffic uses the odd id
 * above. {@code COMM_WORLD} is 0 and {@code COMM_SELF} 2 at every rank. Thread-safe, so threads
 * may create communicators on different parents at once.
 *
 * <p>A new id is agreed among the members: each proposes its lowest free id, all take the highest
 * proposal, and each says whether that id is free here; if one says no (another thread here
 * claimed it meanwhile), all propose again above it. See {@link Agreement#newContext}.
 */
public final class ContextIds {

    public static final int WORLD = 0;
    public static final int SELF = 2;

    private final Set<Integer> used = new HashSet<>();
    private final Set<Integer> proposed = new HashSet<>();

    public ContextIds() {
        used.add(WORLD);
        used.add(SELF);
    }

    /** @return the lowest free id above {@code floor}, now reserved as this rank's proposal */
    synchronized int propose(int floor) {
        int id = Math.max(floor + 2 & ~1, SELF + 2);
        while (used.contains(id) || proposed.contains(id)) {
            id += 2;
        }
        proposed.add(id);
        return id;
    }

    /**
     * Takes {@code id} for a communicator if no one here uses or proposed it but this caller, and
     * withdraws the caller's {@code proposal}.
     *
     * @return whether {@code id} is now the caller's
     */
    synchronized boolean claim(int id, int proposal) {
        proposed.remove(proposal);
        if (used.contains(id) || proposed.contains(id)) {
            return false;
        }
        used.add(id);
        return true;
    }

    /** Gives back an id a communicator no longer uses, or one claimed for a creation that failed. */
    synchronized void release(int id) {
        if (id != WORLD && id != SELF) {
            used.remove(id);
        }
    }
}
