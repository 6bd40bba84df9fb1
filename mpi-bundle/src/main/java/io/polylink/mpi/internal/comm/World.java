package io.polylink.mpi.internal.comm;

import io.polylink.mpi.internal.p2p.Limits;
import io.polylink.mpi.internal.p2p.PointToPoint;

/**
 * What every communicator of this rank shares: the messaging, this rank's place in the job, its
 * context ids and attribute keys.
 */
public final class World {

    private final PointToPoint p2p;
    private final int rank;
    private final int size;
    private final ContextIds contextIds = new ContextIds();
    private final Keyvals keyvals = new Keyvals();

    /**
     * @param rank this rank in the job
     * @param size the number of ranks in the job
     */
    public World(PointToPoint p2p, int rank, int size) {
        this.p2p = p2p;
        this.rank = rank;
        this.size = size;
    }

    public PointToPoint p2p() {
        return p2p;
    }

    public int rank() {
        return rank;
    }

    public int size() {
        return size;
    }

    public Limits limits() {
        return p2p.limits();
    }

    ContextIds contextIds() {
        return contextIds;
    }

    /** @return the attribute keys of this rank */
    public Keyvals keyvals() {
        return keyvals;
    }
}
