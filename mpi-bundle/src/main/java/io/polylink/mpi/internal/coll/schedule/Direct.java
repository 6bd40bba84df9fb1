package io.polylink.mpi.internal.coll.schedule;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.datatype.Region;
import io.polylink.mpi.internal.p2p.PointToPoint;
import io.polylink.mpi.internal.p2p.PointToPoint.Handover;
import io.polylink.mpi.internal.p2p.RankMap;
import io.polylink.mpi.internal.request.Operation;

/**
 * A blocking collective call run on the calling thread message by message, as its algorithm
 * reaches them: no {@link Plan}, no {@link Schedule}. For small calls, where building a plan and
 * running its steps costs about as much as the messages themselves
 * (docs/performance-notes.md#mpi-direct-collectives). Its tags are a plan's, message for message,
 * so the messages of a call are the same whichever way a rank runs it. Used by one thread.
 */
public final class Direct {

    private final PointToPoint p2p;
    private final int context;
    private final RankMap ranks;
    private final int rank;
    private final CallTags tags;

    /** See {@link Plan#Plan}. */
    public Direct(PointToPoint p2p, int context, RankMap ranks, int rank, int size, int sequence) {
        this.p2p = p2p;
        this.context = context;
        this.ranks = ranks;
        this.rank = rank;
        this.tags = new CallTags(sequence, size);
    }

    /** Sends {@code data} to rank {@code to} of the communicator and waits until the send completed. */
    public void send(int to, Region data) {
        await(start(to, data, Handover.COPY));
    }

    /**
     * Sends {@code data} to each rank of {@code to}, from the last to the first, by reference where
     * it lies in a buffer the host's ranks share, and waits until each receiver read it: for an
     * algorithm whose receivers never wait for this rank to receive first, such as a tree's. Every
     * send starts before any is waited for, so from a shared buffer the receivers read side by side.
     */
    public void sendByReference(int[] to, Region data) {
        Operation[] sends = new Operation[to.length];
        RuntimeException failed = null;
        for (int i = to.length - 1; i >= 0 && failed == null; i--) {
            try {
                sends[i] = start(to[i], data, Handover.REFER);
            } catch (RuntimeException e) {
                failed = e;
            }
        }
        for (Operation send : sends) {
            try {
                if (send != null) {
                    await(send);
                }
            } catch (RuntimeException e) {
                failed = failed == null ? e : failed;
            }
        }
        if (failed != null) {
            throw failed;
        }
    }

    /** Receives into {@code data} from rank {@code from} of the communicator, waiting for it. */
    public void receive(int from, Region data) {
        await(post(from, data));
    }

    /**
     * Sends {@code out} to rank {@code to} and receives {@code in} from rank {@code from}, the
     * receive posted first so that neither rank's send waits for the other's receive.
     */
    public void exchange(int to, Region out, int from, Region in) {
        Operation receiving = post(from, in);
        try {
            await(start(to, out, Handover.COPY));
        } catch (RuntimeException e) {
            receiving.cancel();
            throw e;
        }
        await(receiving);
    }

    /** @return what a collective fails with when {@code e} came out of one of its steps */
    public static MpiError failed(RuntimeException e) {
        return e instanceof MpiError m ? m : new MpiError(ErrorClass.ERR_INTERN, "a step of a collective failed: " + e, e);
    }

    private Operation start(int to, Region data, Handover handover) {
        return p2p.send(context, ranks.worldRank(to), rank, tags.toward(to), data.memory(),
            data.map(), data.count(), false, null, handover);
    }

    private Operation post(int from, Region data) {
        return p2p.receive(context, ranks.worldRank(from), tags.from(from), data.memory(),
            data.map(), data.count(), ranks);
    }

    private void await(Operation op) {
        op.await(p2p.limits().idle());
        if (op.error() != null) {
            throw op.error();
        }
    }
}
