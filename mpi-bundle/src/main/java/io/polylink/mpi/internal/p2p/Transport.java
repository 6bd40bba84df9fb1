package io.polylink.mpi.internal.p2p;

import io.polylink.Context;
import io.polylink.Delivery;
import io.polylink.Endpoint;
import io.polylink.Explanation;
import io.polylink.Handler;
import io.polylink.MessageBuffer;
import io.polylink.PolylinkException;
import io.polylink.Startpoint;
import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.wire.Header;
import io.polylink.mpi.internal.wire.HeaderCodec;
import java.util.Arrays;

/**
 * This rank's endpoint, the startpoints to every rank's, pooled buffers to send with, and which
 * ranks are lost: a send a link could not carry loses its rank for good, and every later send
 * to it fails at once with the same error. Thread-safe once {@link #peers} is set.
 */
public final class Transport implements AutoCloseable {

    private static final int POOLED_BUFFERS = 16;

    private final Context context;
    private final Endpoint endpoint;
    private final int worldRank;
    private final BufferPool small;
    private volatile Startpoint[] peers = new Startpoint[0];
    /**
     * By context id / 2: the startpoints, by world rank, of a communicator whose hints give it
     * links of its own (its point-to-point and collective context ids share a slot); {@code null}
     * for the rank's own. Replaced whole when one changes.
     */
    private volatile Startpoint[][] routes = new Startpoint[0][];
    /** By world rank: why the rank is lost, or {@code null}. Replaced whole on a loss. */
    private volatile MpiError[] lost = new MpiError[0];
    private volatile LossListener listener = (rank, error) -> { };

    /** Hears of a rank lost, once per rank, on the thread whose send found it. */
    @FunctionalInterface
    interface LossListener {
        void lost(int worldRank, MpiError error);
    }

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
    }

    /** Installs the engine's handler, run on the delivering thread. */
    void handler(Handler inline) {
        endpoint.register(Header.INLINE_HANDLER, Delivery.INLINE, inline);
    }

    /** @return a startpoint to this rank's endpoint, for the others to look up */
    public Startpoint startpoint() {
        return endpoint.startpoint();
    }

    /** @param peers every rank's startpoint, by rank in the job; this rank's own included */
    public void peers(Startpoint[] peers) {
        this.lost = new MpiError[peers.length];
        this.peers = peers.clone();
    }

    void listener(LossListener l) {
        listener = l;
    }

    /** @return why rank {@code worldRank} is lost, or {@code null} if it is not */
    MpiError lost(int worldRank) {
        return lost[worldRank];
    }

    /**
     * @return why a rank {@code ranks} holds is lost, or {@code null} if none is; {@code source}
     *     names one rank of the job, or is {@link PointToPoint#ANY} for any of {@code ranks}
     */
    MpiError lost(int source, RankMap ranks) {
        MpiError[] l = lost;
        if (source != PointToPoint.ANY) {
            return source >= 0 && source < l.length ? l[source] : null;
        }
        for (int r = 0; r < l.length; r++) {
            if (l[r] != null && ranks.rankOf(r) >= 0) {
                return l[r];
            }
        }
        return null;
    }

    /**
     * Records rank {@code worldRank} as lost, unless it is already, and tells the listener.
     *
     * @return the error naming the rank: {@code error}, or the first one if the rank was lost before
     */
    MpiError lose(int worldRank, MpiError error) {
        synchronized (this) {
            MpiError[] l = lost;
            if (l[worldRank] != null) {
                return l[worldRank];
            }
            l = l.clone();
            l[worldRank] = error;
            lost = l;
        }
        listener.lost(worldRank, error);
        return error;
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

    /** @return the startpoints, by world rank, the messages of communicator context {@code context} take */
    Startpoint[] route(int context) {
        Startpoint[][] r = routes;
        int slot = context >>> 1;
        Startpoint[] own = slot < r.length ? r[slot] : null;
        return own != null ? own : peers;
    }

    /**
     * Gives communicator context {@code context} links of its own, or back the rank's with
     * {@code null}. Messages already sent keep the links they took.
     */
    synchronized void route(int context, Startpoint[] links) {
        int slot = context >>> 1;
        Startpoint[][] r = Arrays.copyOf(routes, Math.max(routes.length, slot + 1));
        r[slot] = links;
        routes = r;
    }

    /**
     * @return startpoints to each of {@code members} (world ranks) that follow {@code hints}, and
     *     the rank's own to this rank and to non-members
     * @throws MpiError {@code ERR_INFO_VALUE} naming the first member the hints leave no way to, and why
     */
    Startpoint[] hinted(LinkHints hints, int[] members) {
        Startpoint[] own = peers;
        Startpoint[] links = own.clone();
        for (int m : members) {
            if (m != worldRank) {
                Startpoint s = hints.apply(own[m]);
                Explanation e = s.explain().get(0);
                if (e.chosen().isEmpty()) {
                    boolean inTable = hints.stack() == null
                        || e.entries().stream().anyMatch(entry -> entry.descriptor().stack().equals(hints.stack()));
                    throw new MpiError(ErrorClass.ERR_INFO_VALUE, "the hints " + hints + " leave rank " + worldRank
                        + " no way to rank " + m + " of the job: " + line(e) + (inTable ? "" : ". No entry of rank "
                        + m + "'s table is " + hints.stack() + ": a rank offers a stack with a transform when it "
                        + "starts the transform (polylink mpirun --transforms, POLYLINK_MPI_TRANSFORMS)"));
                }
                links[m] = s;
            }
        }
        return links;
    }

    /** @return each entry of {@code e}'s table and what selection made of it, on one line */
    static String line(Explanation e) {
        StringBuilder out = new StringBuilder();
        for (Explanation.Entry entry : e.entries()) {
            out.append(out.isEmpty() ? "" : "; ").append(entry);
        }
        return out.toString();
    }

    /** @return how selection reaches rank {@code to} for context {@code context}, entry by entry */
    Explanation explain(int context, int to) {
        return route(context)[to].explain().get(0);
    }

    /**
     * @return the stack messages over {@code links} take to rank {@code to} now, or {@code null} if
     *     not known: not chosen yet, or the link cannot say (a selection policy that fails while a
     *     method is swapped), which only costs the chunks their best size
     */
    static String stack(Startpoint[] links, int to) {
        try {
            Explanation e = links[to].explain().get(0);
            return e == null ? null : e.chosen().map(c -> c.descriptor().stack()).orElse(null);
        } catch (RuntimeException unknown) {
            return null;
        }
    }

    /**
     * Sends {@code m} to rank {@code to}'s handler by the rank's own links.
     *
     * @throws MpiError as {@link #send(Startpoint[], int, int, MessageBuffer)} does
     */
    void send(int to, int handler, MessageBuffer m) {
        send(peers, to, handler, m);
    }

    /**
     * Sends {@code m} to rank {@code to}'s handler by {@code links}, the rank's own or a
     * communicator's ({@link #route(int)}).
     *
     * @throws MpiError {@code ERR_PROC_ABORTED} naming the rank if it is lost, or its link cannot
     *     take {@code m} (the rank is then lost)
     */
    void send(Startpoint[] links, int to, int handler, MessageBuffer m) {
        Startpoint[] p = links;
        if (to < 0 || to >= p.length) {
            throw new MpiError(ErrorClass.ERR_RANK, "rank " + to + " is not in this job of " + p.length + " ranks");
        }
        MpiError gone = lost[to];
        if (gone != null) {
            throw gone;
        }
        try {
            p[to].send(handler, m);
        } catch (PolylinkException e) {
            if (closing()) {
                throw new MpiError(ErrorClass.ERR_OTHER, "rank " + worldRank + " cannot send: its own Polylink runtime "
                    + "is closing (" + e.getMessage() + ")", e);
            }
            throw lose(to, new MpiError(ErrorClass.ERR_PROC_ABORTED, "rank " + to + " of the job is gone: rank "
                + worldRank + " cannot reach it (" + e.getMessage() + ")", e));
        }
    }

    /**
     * @return whether this rank's own runtime is closing, as its process ends: no method is left
     *     but {@code local}, and a failed send says nothing about the peer
     */
    boolean closing() {
        try {
            return context.methods().stream().allMatch("local"::equals);
        } catch (RuntimeException closed) {
            return true;
        }
    }

    /**
     * Sends PING to rank {@code to}, unless it is lost.
     *
     * @throws MpiError as {@link #send(Startpoint[], int, int, MessageBuffer)} does
     */
    void ping(int to) {
        MessageBuffer m = take();
        try {
            HeaderCodec.ping(m, worldRank);
            send(to, Header.INLINE_HANDLER, m);
        } finally {
            give(m);
        }
    }

    /**
     * Sends FIN or BYE to rank {@code to}.
     *
     * @throws MpiError as {@link #send(Startpoint[], int, int, MessageBuffer)} does
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
     * @throws MpiError as {@link #send(Startpoint[], int, int, MessageBuffer)} does
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
