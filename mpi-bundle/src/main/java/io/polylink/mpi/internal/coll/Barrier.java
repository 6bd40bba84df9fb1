package io.polylink.mpi.internal.coll;

import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.datatype.Kind;
import io.polylink.mpi.internal.datatype.Typemap;
import io.polylink.mpi.internal.p2p.PointToPoint;
import io.polylink.mpi.internal.p2p.RankMap;
import io.polylink.mpi.internal.request.Operation;

/**
 * A dissemination barrier (Hensgen, Finkel and Manber): in round {@code k} each rank tells the
 * rank {@code 2^k} above it that it arrived and waits to hear from the rank {@code 2^k} below;
 * after {@code ceil(log2 n)} rounds every rank has heard, directly or not, from all. Each round
 * has its own tag, and the next round starts on the thread that completed this round's receive.
 */
public final class Barrier extends Operation {

    /** Round {@code k} travels with tag {@code TAG - k}, on the collective context. */
    public static final int TAG = -16;

    private static final Typemap NOTHING = Typemap.contiguous(0, Typemap.basic(Kind.BYTE));

    private final PointToPoint p2p;
    private final int context;
    private final RankMap ranks;
    private final int rank;
    private final int size;
    private int distance = 1;
    private int round;

    /**
     * @param context the communicator's collective context id
     * @param ranks the communicator's ranks
     * @param rank this rank in the communicator
     * @param size the communicator's size
     */
    public Barrier(PointToPoint p2p, int context, RankMap ranks, int rank, int size) {
        this.p2p = p2p;
        this.context = context;
        this.ranks = ranks;
        this.rank = rank;
        this.size = size;
    }

    /** Starts the first round. @return this */
    public Barrier start() {
        next();
        return this;
    }

    private void next() {
        if (distance >= size) {
            complete(rank, 0, 0, null);
            return;
        }
        int tag = TAG - round;
        int to = (rank + distance) % size;
        int from = (rank - distance + size) % size;
        distance <<= 1;
        round++;
        Operation received;
        try {
            p2p.send(context, ranks.worldRank(to), rank, tag, null, NOTHING, 0, false);
            received = p2p.receive(context, ranks.worldRank(from), tag, null, NOTHING, 0, ranks);
        } catch (MpiError e) {
            complete(rank, 0, 0, e);
            return;
        }
        received.whenDone(() -> {
            if (received.error() != null) {
                complete(rank, 0, 0, received.error());
            } else {
                next();
            }
        });
    }
}
