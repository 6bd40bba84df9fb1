package io.polylink.mpi.internal.p2p;

import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.datatype.Cursor;
import io.polylink.mpi.internal.datatype.Memory;
import io.polylink.mpi.internal.datatype.Typemap;
import io.polylink.mpi.internal.request.Operation;

/**
 * A send that waits for its receiver: a large message until its data is handed over after CTS,
 * a synchronous-mode one until SYNC_ACK says a receive matched it.
 */
final class SendOperation extends Operation {

    /** The communicator's context id: its links carry the data. */
    final int context;
    final int destination;
    private final int rank;
    private final int tag;
    private final Memory memory;
    private final Typemap map;
    private final long count;

    /**
     * @param context the communicator's context id
     * @param destination the receiver's rank in the job
     * @param rank the sender's rank in the communicator, for the status
     */
    SendOperation(int context, int destination, int rank, int tag, Memory memory, Typemap map, long count) {
        this.context = context;
        this.destination = destination;
        this.rank = rank;
        this.tag = tag;
        this.memory = memory;
        this.map = map;
        this.count = count;
    }

    /** @return the bytes the message takes on the wire */
    long length() {
        return map.size() * count;
    }

    /** @return a cursor over the message's data, from its start */
    Cursor cursor() {
        return new Cursor(memory, map, count);
    }

    /** @return the most bytes of whole primitives within the first {@code accepted} bytes of the message */
    long wholeWithin(long accepted) {
        return map.wholeBytesWithin(Math.min(accepted, length()));
    }

    /** Completes: the message was handed over, or a receive matched it. */
    void done() {
        complete(rank, tag, length(), null);
    }

    void fail(MpiError error) {
        complete(rank, tag, 0, error);
    }
}
