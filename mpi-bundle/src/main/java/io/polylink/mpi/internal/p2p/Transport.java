package io.polylink.mpi.internal.p2p;

import io.polylink.Context;
import io.polylink.Delivery;
import io.polylink.Endpoint;
import io.polylink.Handler;
import io.polylink.MessageBuffer;
import io.polylink.PolylinkException;
import io.polylink.Startpoint;
import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.wire.Header;
import io.polylink.mpi.internal.wire.HeaderCodec;

/**
 * This rank's endpoint, the startpoints to every rank's, and pooled buffers to send with.
 * Thread-safe once {@link #peers} is set.
 */
public final class Transport implements AutoCloseable {

    private static final int POOLED_BUFFERS = 16;
    private static final int POOLED_CHUNKS = 4;

    private final Context context;
    private final Endpoint endpoint;
    private final int worldRank;
    private final BufferPool small;
    private final BufferPool chunks;
    private volatile Startpoint[] peers = new Startpoint[0];

    /**
     * @param context this rank's Polylink context
     * @param worldRank this rank in the job
     * @param limits sizes the pooled buffers
     */
    public Transport(Context context, int worldRank, Limits limits) {
        this.context = context;
        this.worldRank = worldRank;
        this.endpoint = context.createEndpoint();
        this.small = new BufferPool(context, Header.RTS_LENGTH + limits.eagerLimit(), POOLED_BUFFERS);
        this.chunks = new BufferPool(context, Header.DATA_LENGTH + limits.chunk(), POOLED_CHUNKS);
    }

    /** Installs the engine's handlers: {@code inline} on the delivering thread, {@code executor} on the context's executor. */
    void handlers(Handler inline, Handler executor) {
        endpoint.register(Header.INLINE_HANDLER, Delivery.INLINE, inline);
        endpoint.register(Header.EXECUTOR_HANDLER, Delivery.EXECUTOR, executor);
    }

    /** @return a startpoint to this rank's endpoint, for the others to look up */
    public Startpoint startpoint() {
        return endpoint.startpoint();
    }

    /** @param peers every rank's startpoint, by rank in the job; this rank's own included */
    public void peers(Startpoint[] peers) {
        this.peers = peers.clone();
    }

    /** @return this rank in the job */
    public int worldRank() {
        return worldRank;
    }

    /** @return the number of ranks in the job, once {@link #peers} is set */
    public int worldSize() {
        return peers.length;
    }

    /** @return the context this rank runs in */
    public Context context() {
        return context;
    }

    MessageBuffer take() {
        return small.take();
    }

    void give(MessageBuffer m) {
        small.give(m);
    }

    MessageBuffer takeChunk() {
        return chunks.take();
    }

    void giveChunk(MessageBuffer m) {
        chunks.give(m);
    }

    /**
     * Sends {@code m} to rank {@code to}'s handler.
     *
     * @throws MpiError {@code ERR_OTHER} naming the rank if the link cannot take it
     */
    void send(int to, int handler, MessageBuffer m) {
        Startpoint[] p = peers;
        if (to < 0 || to >= p.length) {
            throw new MpiError(ErrorClass.ERR_RANK, "rank " + to + " is not in this job of " + p.length + " ranks");
        }
        try {
            p[to].send(handler, m);
        } catch (PolylinkException e) {
            throw new MpiError(ErrorClass.ERR_OTHER, "rank " + worldRank + " cannot reach rank " + to + ": "
                + e.getMessage(), e);
        }
    }

    /**
     * Sends FIN or BYE to rank {@code to}.
     *
     * @throws MpiError {@code ERR_OTHER} naming the rank if it cannot be reached
     */
    public void farewell(int kind, int to) {
        MessageBuffer m = take();
        try {
            HeaderCodec.farewell(m, kind, worldRank);
            send(to, Header.INLINE_HANDLER, m);
        } finally {
            give(m);
        }
    }

    /**
     * Tells rank {@code to} that this rank aborts the job with {@code code}.
     *
     * @throws MpiError {@code ERR_OTHER} naming the rank if it cannot be reached
     */
    public void abort(int to, int code) {
        MessageBuffer m = take();
        try {
            HeaderCodec.abort(m, worldRank, code);
            send(to, Header.INLINE_HANDLER, m);
        } finally {
            give(m);
        }
    }

    /** Stops delivery to this rank's endpoint. */
    @Override
    public void close() {
        endpoint.close();
    }
}
