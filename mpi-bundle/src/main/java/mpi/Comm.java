package mpi;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.comm.Communicator;
import io.polylink.mpi.internal.comm.Derive;
import io.polylink.mpi.internal.comm.ErrorMode;
import io.polylink.mpi.internal.boot.Session;
import io.polylink.mpi.internal.coll.AllGather;
import io.polylink.mpi.internal.coll.AllReduce;
import io.polylink.mpi.internal.coll.AllToAll;
import io.polylink.mpi.internal.coll.Barrier;
import io.polylink.mpi.internal.coll.Broadcast;
import io.polylink.mpi.internal.coll.Collectives;
import io.polylink.mpi.internal.coll.Gather;
import io.polylink.mpi.internal.coll.Neighbours;
import io.polylink.mpi.internal.coll.Reduce;
import io.polylink.mpi.internal.coll.ReduceScatter;
import io.polylink.mpi.internal.coll.Scatter;
import io.polylink.mpi.internal.datatype.Kind;
import io.polylink.mpi.internal.datatype.Packing;
import io.polylink.mpi.internal.datatype.Typemap;
import io.polylink.mpi.internal.p2p.BufferedSends;
import io.polylink.mpi.internal.request.Operation;
import java.nio.Buffer;

/**
 * A communicator ({@code MPI_Comm}): a group of ranks and a communication context, for
 * point-to-point messaging, collectives and the creation of further communicators.
 *
 * <p>Buffers are Java primitive arrays or {@code java.nio} buffers, as in the Open MPI bindings:
 * blocking calls take either, non-blocking and persistent ones take direct buffers only. A heap
 * buffer starts at its array offset and a direct buffer at its first element, whatever their
 * positions; {@link MPI#slice} makes a buffer that starts further in.
 *
 * <p>Errors go to the communicator's error handler: by default {@link MPI#ERRORS_ARE_FATAL}, which
 * ends the job; with {@link MPI#ERRORS_RETURN} the call throws {@link MPIException}. Any thread may
 * call any method.
 */
public class Comm implements Freeable, Cloneable {

    /** {@code splitType}'s type for ranks that share memory. */
    public static final int TYPE_SHARED = 0;

    private static final Typemap BYTES = Typemap.basic(Kind.BYTE);

    private volatile Communicator communicator;

    Comm(Communicator communicator) {
        this.communicator = communicator;
    }

    /** Binds a predefined communicator to the rank {@code MPI.Init} started. */
    final void bind(Communicator c) {
        communicator = c;
    }

    /**
     * @return the communicator, checked to be usable
     * @throws MPIException if MPI is not running, or this is {@code MPI_COMM_NULL}
     */
    final Communicator comm() throws MPIException {
        MPI.check();
        Communicator c = communicator;
        if (c == null) {
            throw Errors.raise(new MpiError(ErrorClass.ERR_COMM, "the communicator is MPI_COMM_NULL: freed, or one this "
                + "rank is not a member of"));
        }
        return c;
    }

    /** Waits for {@code op}; its error, if any, is thrown. */
    static Status await(Operation op) {
        op.await(MPI.idle());
        if (op.error() != null) {
            throw op.error();
        }
        return Status.of(op);
    }

    /** Same as {@link #dup}, for {@link Cloneable}; an error becomes a {@link RuntimeException}. */
    @Override
    public Comm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e.getMessage(), e);
        }
    }

    /**
     * @return a new communicator of the same ranks, with copies of the attributes and the same error
     *     handler ({@code MPI_COMM_DUP}); collective
     */
    public Comm dup() throws MPIException {
        return new Comm(duplicate());
    }

    final Communicator duplicate() throws MPIException {
        Communicator c = comm();
        try {
            return Derive.dup(c);
        } catch (MpiError e) {
            throw Errors.raise(c, e);
        }
    }

    /** {@code MPI_COMM_IDUP}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public Comm iDup() throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Comm_idup");
    }

    /** @return a duplicate carrying the hints of {@code info} ({@code MPI_COMM_DUP_WITH_INFO}); collective */
    public Comm dupWithInfo(Info info) throws MPIException {
        return new Comm(duplicateWithInfo(info));
    }

    final Communicator duplicateWithInfo(Info info) throws MPIException {
        Communicator d = duplicate();
        try {
            d.info(hints(info));
        } catch (MpiError e) {
            throw Errors.raise(d, e);
        }
        return d;
    }

    private static java.util.Map<String, String> hints(Info info) {
        if (info == null || info.isNull()) {
            throw new MpiError(ErrorClass.ERR_INFO, "the info object is null or MPI.INFO_NULL");
        }
        return info.entries();
    }

    /** @return {@code null}: {@link #iDup} is not implemented, so no communicator has a request */
    public final Request getRequest() {
        return null;
    }

    /** @return the number of ranks ({@code MPI_COMM_SIZE}) */
    public final int getSize() throws MPIException {
        return comm().size();
    }

    /** @return this rank's rank ({@code MPI_COMM_RANK}) */
    public final int getRank() throws MPIException {
        return comm().rank();
    }

    /**
     * @return {@link MPI#IDENT} for the same communicator, {@link MPI#CONGRUENT} for the same ranks
     *     in the same order, {@link MPI#SIMILAR} for the same ranks in another order, else
     *     {@link MPI#UNEQUAL} ({@code MPI_COMM_COMPARE})
     */
    public static int compare(Comm comm1, Comm comm2) throws MPIException {
        return Communicator.compare(comm1.comm(), comm2.comm());
    }

    /** Frees the communicator, which becomes {@code MPI_COMM_NULL} ({@code MPI_COMM_FREE}). */
    @Override
    public final void free() throws MPIException {
        Communicator c = comm();
        try {
            c.free();
        } catch (MpiError e) {
            throw Errors.raise(c, e);
        }
        communicator = null;
    }

    /** @return whether this is {@code MPI_COMM_NULL}: freed, or a communicator this rank did not join */
    public final boolean isNull() {
        return communicator == null;
    }

    /** Replaces the communicator's hints ({@code MPI_COMM_SET_INFO}). */
    public final void setInfo(Info info) throws MPIException {
        Communicator c = comm();
        try {
            c.info(hints(info));
        } catch (MpiError e) {
            throw Errors.raise(c, e);
        }
    }

    /** @return a copy of the communicator's hints ({@code MPI_COMM_GET_INFO}) */
    public final Info getInfo() throws MPIException {
        return Info.copyOf(comm().info());
    }

    /** {@code MPI_COMM_DISCONNECT}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final void disconnect() throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Comm_disconnect");
    }

    /** @return the communicator's group ({@code MPI_COMM_GROUP}) */
    public final Group getGroup() throws MPIException {
        return new Group(comm().members());
    }

    /** @return {@code false}: every communicator of this bundle is an intra-communicator ({@code MPI_COMM_TEST_INTER}) */
    public final boolean isInter() throws MPIException {
        comm();
        return false;
    }

    /** {@code MPI_INTERCOMM_CREATE}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Intercomm createIntercomm(Comm localComm, int localLeader, int remoteLeader, int tag)
            throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Intercomm_create");
    }

    /**
     * Sends and returns when the buffer may be reused ({@code MPI_SEND}): a message up to the eager
     * limit at once, a larger one once its receiver took the data.
     *
     * @param buf the data: a primitive array or a buffer
     * @param count elements of {@code type}
     * @param dest a rank, or {@link MPI#PROC_NULL}
     * @param tag 0 to the {@link MPI#TAG_UB} attribute
     */
    public final void send(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        Communicator c = comm();
        try {
            await(c.send(buf, count, Datatype.use(type), dest, tag, false));
        } catch (MpiError e) {
            throw Errors.raise(c, e);
        }
    }

    /**
     * Receives a message ({@code MPI_RECV}). A longer message than the buffer fills it and fails
     * with {@code ERR_TRUNCATE}.
     *
     * @param source a rank, {@link MPI#ANY_SOURCE} or {@link MPI#PROC_NULL}
     * @param tag a tag or {@link MPI#ANY_TAG}
     * @return the status: source, tag and length of the message
     */
    public final Status recv(Object buf, int count, Datatype type, int source, int tag) throws MPIException {
        Communicator c = comm();
        try {
            return await(c.receive(buf, count, Datatype.use(type), source, tag));
        } catch (MpiError e) {
            throw Errors.raise(c, e);
        }
    }

    /** Sends one message and receives another, neither waiting for the other ({@code MPI_SENDRECV}). */
    public final Status sendRecv(Object sendbuf, int sendcount, Datatype sendtype, int dest, int sendtag,
                                 Object recvbuf, int recvcount, Datatype recvtype, int source, int recvtag)
            throws MPIException {
        Communicator c = comm();
        try {
            Typemap sent = Datatype.use(sendtype);
            c.checkSend(sendbuf, sendcount, sent, dest, sendtag);
            Operation received = c.receive(recvbuf, recvcount, Datatype.use(recvtype), source, recvtag);
            return exchange(c, received, sendbuf, sendcount, sent, dest, sendtag);
        } catch (MpiError e) {
            throw Errors.raise(c, e);
        }
    }

    /** Sends the buffer's data and receives a message into the same buffer ({@code MPI_SENDRECV_REPLACE}). */
    public final Status sendRecvReplace(Object buf, int count, Datatype type, int dest, int sendtag, int source,
                                        int recvtag) throws MPIException {
        Communicator c = comm();
        try {
            Typemap map = Datatype.use(type);
            c.checkSend(buf, count, map, dest, sendtag);
            byte[] packed = Packing.copy(buf, count, map);
            Operation received = c.receive(buf, count, map, source, recvtag);
            return exchange(c, received, packed, packed.length, BYTES, dest, sendtag);
        } catch (MpiError e) {
            throw Errors.raise(c, e);
        }
    }

    /** Sends, then waits for the receive posted before; a send that fails withdraws the receive. */
    private static Status exchange(Communicator c, Operation received, Object buf, int count, Typemap map, int dest,
                                   int tag) {
        try {
            await(c.send(buf, count, map, dest, tag, false));
        } catch (MpiError e) {
            received.cancel();
            throw e;
        }
        return await(received);
    }

    /**
     * Sends in buffered mode ({@code MPI_BSEND}): the message is packed into the buffer attached with
     * {@link MPI#attachBuffer}, and the call returns at once.
     */
    public final void bSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        Communicator c = comm();
        try {
            await(c.bufferedSend(buf, count, Datatype.use(type), dest, tag, MPI.session().buffered()));
        } catch (MpiError e) {
            throw Errors.raise(c, e);
        }
    }

    /** Sends in synchronous mode ({@code MPI_SSEND}): returns once a receive matched the message. */
    public final void sSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        Communicator c = comm();
        try {
            await(c.send(buf, count, Datatype.use(type), dest, tag, true));
        } catch (MpiError e) {
            throw Errors.raise(c, e);
        }
    }

    /** Sends in ready mode ({@code MPI_RSEND}); the receive should be posted already. Behaves as {@link #send}. */
    public final void rSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        send(buf, count, type, dest, tag);
    }

    private Request started(Buffer buf, int count, Datatype type, int peer, int tag, Mode mode) throws MPIException {
        Communicator c = comm();
        MPI.assertDirectBuffer(buf);
        try {
            return new Request(mode.start(c, buf, count, Datatype.use(type), peer, tag), c);
        } catch (MpiError e) {
            throw Errors.raise(c, e);
        }
    }

    /** Starts a send ({@code MPI_ISEND}). @param buf a direct buffer */
    public final Request iSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return started(buf, count, type, dest, tag, Mode.STANDARD);
    }

    /** Starts a buffered-mode send ({@code MPI_IBSEND}); the request is complete at once. @param buf a direct buffer */
    public final Request ibSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return started(buf, count, type, dest, tag, Mode.BUFFERED);
    }

    /** Starts a synchronous-mode send ({@code MPI_ISSEND}). @param buf a direct buffer */
    public final Request isSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return started(buf, count, type, dest, tag, Mode.SYNCHRONOUS);
    }

    /** Starts a ready-mode send ({@code MPI_IRSEND}). @param buf a direct buffer */
    public final Request irSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return started(buf, count, type, dest, tag, Mode.STANDARD);
    }

    /** Starts a receive ({@code MPI_IRECV}). @param buf a direct buffer */
    public final Request iRecv(Buffer buf, int count, Datatype type, int source, int tag) throws MPIException {
        return started(buf, count, type, source, tag, Mode.RECEIVE);
    }

    private Prequest persistent(Buffer buf, int count, Datatype type, int peer, int tag, Mode mode)
            throws MPIException {
        Communicator c = comm();
        MPI.assertDirectBuffer(buf);
        try {
            Typemap map = Datatype.use(type);
            if (mode == Mode.RECEIVE) {
                c.checkReceive(buf, count, map, peer, tag);
            } else {
                c.checkSend(buf, count, map, peer, tag);
            }
            return new Prequest(c, () -> mode.start(c, buf, count, map, peer, tag));
        } catch (MpiError e) {
            throw Errors.raise(c, e);
        }
    }

    /** @return a persistent send ({@code MPI_SEND_INIT}) @param buf a direct buffer */
    public final Prequest sendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return persistent(buf, count, type, dest, tag, Mode.STANDARD);
    }

    /** @return a persistent buffered-mode send ({@code MPI_BSEND_INIT}) @param buf a direct buffer */
    public final Prequest bSendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return persistent(buf, count, type, dest, tag, Mode.BUFFERED);
    }

    /** @return a persistent synchronous-mode send ({@code MPI_SSEND_INIT}) @param buf a direct buffer */
    public final Prequest sSendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return persistent(buf, count, type, dest, tag, Mode.SYNCHRONOUS);
    }

    /** @return a persistent ready-mode send ({@code MPI_RSEND_INIT}) @param buf a direct buffer */
    public final Prequest rSendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return persistent(buf, count, type, dest, tag, Mode.STANDARD);
    }

    /** @return a persistent receive ({@code MPI_RECV_INIT}) @param buf a direct buffer */
    public final Prequest recvInit(Buffer buf, int count, Datatype type, int source, int tag) throws MPIException {
        return persistent(buf, count, type, source, tag, Mode.RECEIVE);
    }

    /**
     * Packs data into {@code outbuf} from {@code position} ({@code MPI_PACK}), for sending as
     * {@link MPI#PACKED}.
     *
     * @return the position after the packed data
     */
    public final int pack(Object inbuf, int incount, Datatype type, byte[] outbuf, int position) throws MPIException {
        Communicator c = comm();
        try {
            return Packing.pack(inbuf, incount, Datatype.use(type), outbuf, position);
        } catch (MpiError e) {
            throw Errors.raise(c, e);
        }
    }

    /**
     * Unpacks data packed by {@link #pack} ({@code MPI_UNPACK}).
     *
     * @return the position after the data read
     */
    public final int unpack(byte[] inbuf, int position, Object outbuf, int outcount, Datatype type)
            throws MPIException {
        Communicator c = comm();
        try {
            return Packing.unpack(inbuf, position, outbuf, outcount, Datatype.use(type));
        } catch (MpiError e) {
            throw Errors.raise(c, e);
        }
    }

    /** @return the bytes {@link #pack} takes for {@code incount} elements ({@code MPI_PACK_SIZE}) */
    public final int packSize(int incount, Datatype type) throws MPIException {
        Communicator c = comm();
        try {
            if (incount < 0) {
                throw new MpiError(ErrorClass.ERR_COUNT, "count " + incount + " is negative");
            }
            long bytes = Datatype.use(type).size() * incount;
            if (bytes > Integer.MAX_VALUE) {
                throw new MpiError(ErrorClass.ERR_COUNT, incount + " elements take " + bytes + " bytes, more than an int");
            }
            return (int) bytes;
        } catch (MpiError e) {
            throw Errors.raise(c, e);
        }
    }

    /**
     * @return the status of a message a receive with these arguments would match now, or
     *     {@code null} if none has arrived ({@code MPI_IPROBE})
     */
    public final Status iProbe(int source, int tag) throws MPIException {
        Communicator c = comm();
        try {
            Communicator.Probed p = c.probe(source, tag, false);
            return p == null ? null : Status.probed(p.source(), p.tag(), p.bytes());
        } catch (MpiError e) {
            throw Errors.raise(c, e);
        }
    }

    /** @return the status of a message a receive with these arguments would match, once one arrived ({@code MPI_PROBE}) */
    public final Status probe(int source, int tag) throws MPIException {
        Communicator c = comm();
        try {
            Communicator.Probed p = c.probe(source, tag, true);
            return Status.probed(p.source(), p.tag(), p.bytes());
        } catch (MpiError e) {
            throw Errors.raise(c, e);
        }
    }

    /** @return a new attribute key ({@code MPI_COMM_CREATE_KEYVAL}); values are copied into duplicates */
    public static int createKeyval() throws MPIException {
        return MPI.session().world().keyvals().create();
    }

    /** Frees an attribute key ({@code MPI_COMM_FREE_KEYVAL}). */
    public static void freeKeyval(int keyval) throws MPIException {
        try {
            MPI.session().world().keyvals().free(keyval);
        } catch (MpiError e) {
            throw Errors.raise(e);
        }
    }

    /**
     * Caches a copy of {@code value} under {@code keyval} ({@code MPI_COMM_SET_ATTR}); the value must
     * be {@link java.io.Serializable}, as in the Open MPI bindings.
     */
    public final void setAttr(int keyval, Object value) throws MPIException {
        Communicator c = comm();
        try {
            MPI.session().world().keyvals().check(keyval);
            c.attributes().set(keyval, value);
        } catch (MpiError e) {
            throw Errors.raise(c, e);
        }
    }

    /**
     * @return a copy of the value under {@code keyval}, or {@code null} ({@code MPI_COMM_GET_ATTR}).
     *     The predefined keys give an {@code Integer} ({@link MPI#TAG_UB}, {@link MPI#HOST},
     *     {@link MPI#IO}, {@link MPI#APPNUM}, {@link MPI#LASTUSEDCODE}, {@link MPI#UNIVERSE_SIZE}) or
     *     a {@code Boolean} ({@link MPI#WTIME_IS_GLOBAL})
     */
    public final Object getAttr(int keyval) throws MPIException {
        Communicator c = comm();
        switch (keyval) {
            case MPI.TAG_UB:
                return Communicator.TAG_UB;
            case MPI.HOST:
                return MPI.PROC_NULL;
            case MPI.IO:
                return MPI.ANY_SOURCE;
            case MPI.APPNUM:
                return 0;
            case MPI.LASTUSEDCODE:
                return MPI.ERR_LASTCODE;
            case MPI.UNIVERSE_SIZE:
                return c.world().size();
            case MPI.WTIME_IS_GLOBAL:
                return Boolean.FALSE;
            default:
                try {
                    MPI.session().world().keyvals().check(keyval);
                    return c.attributes().get(keyval);
                } catch (MpiError e) {
                    throw Errors.raise(c, e);
                }
        }
    }

    /** Removes the value under {@code keyval} ({@code MPI_COMM_DELETE_ATTR}). */
    public final void deleteAttr(int keyval) throws MPIException {
        Communicator c = comm();
        try {
            MPI.session().world().keyvals().check(keyval);
            c.attributes().delete(keyval);
        } catch (MpiError e) {
            throw Errors.raise(c, e);
        }
    }

    /** @return {@link MPI#CART} for a Cartesian communicator, else {@link MPI#UNDEFINED} ({@code MPI_TOPO_TEST}) */
    public final int getTopology() throws MPIException {
        return comm().cartesian() != null ? MPI.CART : MPI.UNDEFINED;
    }

    /**
     * Aborts the whole job ({@code MPI_ABORT}): every rank ends, with {@code errorcode} as exit status.
     *
     * @throws MPIException {@code ERR_PROC_ABORTED} only where the rank's host keeps the process going
     */
    public final void abort(int errorcode) throws MPIException {
        comm();
        throw Errors.exception(MPI.session().abort(errorcode, "MPI_Abort called"));
    }

    /** Sets the error handler ({@code MPI_COMM_SET_ERRHANDLER}). */
    public final void setErrhandler(Errhandler errhandler) throws MPIException {
        Communicator c = comm();
        if (errhandler == null) {
            throw Errors.raise(c, Errors.argument("the error handler is null"));
        }
        c.errors(errhandler.mode);
    }

    /** @return the error handler ({@code MPI_COMM_GET_ERRHANDLER}) */
    public final Errhandler getErrhandler() throws MPIException {
        return Errhandler.of(comm().errors());
    }

    /**
     * Calls the error handler with {@code errorCode} ({@code MPI_COMM_CALL_ERRHANDLER}): with
     * {@link MPI#ERRORS_RETURN} nothing happens; otherwise the job is aborted.
     */
    public void callErrhandler(int errorCode) throws MPIException {
        Communicator c = comm();
        if (c.errors() != ErrorMode.RETURN) {
            throw Errors.raise(c, new MpiError(errorCode, "error code " + errorCode + " raised by callErrhandler"));
        }
    }

    /** Starts a collective on a communicator; the argument checks throw {@link MpiError}. */
    @FunctionalInterface
    interface Collective {
        Operation start(Collectives c);
    }

    /** Runs a blocking collective: starts it and waits for it. */
    final void run(Collective collective) throws MPIException {
        Communicator c = comm();
        try {
            await(collective.start(c.collectives()));
        } catch (MpiError e) {
            throw Errors.raise(c, e);
        }
    }

    /** Starts a non-blocking collective. @return its request, complete once the collective is at this rank */
    final Request start(Collective collective) throws MPIException {
        Communicator c = comm();
        try {
            return new Request(collective.start(c.collectives()), c);
        } catch (MpiError e) {
            throw Errors.raise(c, e);
        }
    }

    /** Waits until every rank of the communicator called it ({@code MPI_BARRIER}). */
    public final void barrier() throws MPIException {
        run(c -> Barrier.start(c, true));
    }

    /**
     * Starts a barrier that completes once every rank started it ({@code MPI_IBARRIER}); it
     * progresses on arrivals, without further calls.
     */
    public final Request iBarrier() throws MPIException {
        return start(c -> Barrier.start(c, false));
    }

    /**
     * Broadcasts the root's {@code buf} to every rank ({@code MPI_BCAST}).
     *
     * @param buf the data at the root; where it arrives elsewhere
     */
    public final void bcast(Object buf, int count, Datatype type, int root) throws MPIException {
        run(c -> Broadcast.start(c, buf, count, Datatype.use(type), root, true));
    }

    /** Starts a broadcast ({@code MPI_IBCAST}). @param buf a direct buffer */
    public final Request iBcast(Buffer buf, int count, Datatype type, int root) throws MPIException {
        MPI.assertDirectBuffer(buf);
        return start(c -> Broadcast.start(c, buf, count, Datatype.use(type), root, false));
    }

    /**
     * Gathers every rank's {@code sendbuf} into the root's {@code recvbuf}, rank {@code i}'s block
     * at element {@code i * recvcount} ({@code MPI_GATHER}).
     */
    public final void gather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
            Datatype recvtype, int root) throws MPIException {
        run(c -> Gather.gather(c, sendbuf, sendcount, Datatype.use(sendtype), recvbuf, recvcount, receiveType(c,
            recvtype, root), root, false));
    }

    /**
     * {@code MPI_GATHER} with {@code MPI_IN_PLACE}: at the root {@code buf} is the receive buffer,
     * its own block in place already; elsewhere it is the send buffer.
     */
    public final void gather(Object buf, int count, Datatype type, int root) throws MPIException {
        run(c -> inPlaceGather(c, buf, count, type, root));
    }

    /** Starts a gather ({@code MPI_IGATHER}). @param sendbuf a direct buffer @param recvbuf a direct buffer */
    public final Request iGather(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount,
            Datatype recvtype, int root) throws MPIException {
        MPI.assertDirectBuffer(sendbuf, recvbuf);
        return start(c -> Gather.gather(c, sendbuf, sendcount, Datatype.use(sendtype), recvbuf, recvcount,
            receiveType(c, recvtype, root), root, false));
    }

    /** Starts a gather with {@code MPI_IN_PLACE} at the root ({@code MPI_IGATHER}). @param buf a direct buffer */
    public final Request iGather(Buffer buf, int count, Datatype type, int root) throws MPIException {
        MPI.assertDirectBuffer(buf);
        return start(c -> inPlaceGather(c, buf, count, type, root));
    }

    private static Operation inPlaceGather(Collectives c, Object buf, int count, Datatype type, int root) {
        Typemap map = Datatype.use(type);
        return c.rank() == root ? Gather.gather(c, null, 0, map, buf, count, map, root, true)
            : Gather.gather(c, buf, count, map, null, 0, map, root, false);
    }

    /** @return the receive type's layout at the root, where it counts; elsewhere it is not looked at */
    private static Typemap receiveType(Collectives c, Datatype type, int root) {
        return c.rank() == root ? Datatype.use(type) : null;
    }

    /**
     * Gathers blocks of different sizes into the root's {@code recvbuf} ({@code MPI_GATHERV}).
     *
     * @param recvcount elements from each rank
     * @param displs where each rank's block starts, in elements of {@code recvtype}
     */
    public final void gatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
            int[] displs, Datatype recvtype, int root) throws MPIException {
        run(c -> Gather.gatherv(c, sendbuf, sendcount, Datatype.use(sendtype), recvbuf, recvcount, displs,
            receiveType(c, recvtype, root), root, false));
    }

    /** {@code MPI_GATHERV} with {@code MPI_IN_PLACE}, at the root: its own block is in place in {@code recvbuf}. */
    public final void gatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        run(c -> Gather.gatherv(c, null, 0, null, recvbuf, recvcount, displs, Datatype.use(recvtype), root, true));
    }

    /** {@code MPI_GATHERV} at the ranks other than the root, when the root gathers in place. */
    public final void gatherv(Object sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
        run(c -> Gather.gatherv(c, sendbuf, sendcount, Datatype.use(sendtype), null, null, null, null, root, false));
    }

    /** Starts a gather of blocks of different sizes ({@code MPI_IGATHERV}). @param sendbuf a direct buffer @param recvbuf a direct buffer */
    public final Request iGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int[] recvcount,
            int[] displs, Datatype recvtype, int root) throws MPIException {
        MPI.assertDirectBuffer(sendbuf, recvbuf);
        return start(c -> Gather.gatherv(c, sendbuf, sendcount, Datatype.use(sendtype), recvbuf, recvcount, displs,
            receiveType(c, recvtype, root), root, false));
    }

    /** Starts {@code MPI_IGATHERV} with {@code MPI_IN_PLACE}, at the root. @param recvbuf a direct buffer */
    public final Request iGatherv(Buffer recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        MPI.assertDirectBuffer(recvbuf);
        return start(c -> Gather.gatherv(c, null, 0, null, recvbuf, recvcount, displs, Datatype.use(recvtype), root,
            true));
    }

    /** Starts {@code MPI_IGATHERV} at the ranks other than the root, when the root gathers in place. @param sendbuf a direct buffer */
    public final Request iGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
        MPI.assertDirectBuffer(sendbuf);
        return start(c -> Gather.gatherv(c, sendbuf, sendcount, Datatype.use(sendtype), null, null, null, null, root,
            false));
    }

    /**
     * Scatters blocks of the root's {@code sendbuf}, block {@code i} (from element {@code i * sendcount})
     * to rank {@code i} ({@code MPI_SCATTER}).
     */
    public final void scatter(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
            Datatype recvtype, int root) throws MPIException {
        run(c -> Scatter.scatter(c, sendbuf, sendcount, receiveType(c, sendtype, root), recvbuf, recvcount,
            Datatype.use(recvtype), root, false));
    }

    /**
     * {@code MPI_SCATTER} with {@code MPI_IN_PLACE}: at the root {@code buf} is the send buffer,
     * whose own block stays in place; elsewhere it is the receive buffer.
     */
    public final void scatter(Object buf, int count, Datatype type, int root) throws MPIException {
        run(c -> inPlaceScatter(c, buf, count, type, root));
    }

    /** Starts a scatter ({@code MPI_ISCATTER}). @param sendbuf a direct buffer @param recvbuf a direct buffer */
    public final Request iScatter(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount,
            Datatype recvtype, int root) throws MPIException {
        MPI.assertDirectBuffer(sendbuf, recvbuf);
        return start(c -> Scatter.scatter(c, sendbuf, sendcount, receiveType(c, sendtype, root), recvbuf, recvcount,
            Datatype.use(recvtype), root, false));
    }

    /** Starts a scatter with {@code MPI_IN_PLACE} at the root ({@code MPI_ISCATTER}). @param buf a direct buffer */
    public final Request iScatter(Buffer buf, int count, Datatype type, int root) throws MPIException {
        MPI.assertDirectBuffer(buf);
        return start(c -> inPlaceScatter(c, buf, count, type, root));
    }

    private static Operation inPlaceScatter(Collectives c, Object buf, int count, Datatype type, int root) {
        Typemap map = Datatype.use(type);
        return c.rank() == root ? Scatter.scatter(c, buf, count, map, null, 0, map, root, true)
            : Scatter.scatter(c, null, 0, map, buf, count, map, root, false);
    }

    /**
     * Scatters blocks of different sizes of the root's {@code sendbuf} ({@code MPI_SCATTERV}).
     *
     * @param sendcount elements to each rank
     * @param displs where each rank's block starts, in elements of {@code sendtype}
     */
    public final void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, Object recvbuf,
            int recvcount, Datatype recvtype, int root) throws MPIException {
        run(c -> Scatter.scatterv(c, sendbuf, sendcount, displs, receiveType(c, sendtype, root), recvbuf, recvcount,
            Datatype.use(recvtype), root, false));
    }

    /** {@code MPI_SCATTERV} with {@code MPI_IN_PLACE}, at the root: its own block stays in {@code sendbuf}. */
    public final void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root)
            throws MPIException {
        run(c -> Scatter.scatterv(c, sendbuf, sendcount, displs, Datatype.use(sendtype), null, 0, null, root, true));
    }

    /** {@code MPI_SCATTERV} at the ranks other than the root, when the root scatters in place. */
    public final void scatterv(Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        run(c -> Scatter.scatterv(c, null, null, null, null, recvbuf, recvcount, Datatype.use(recvtype), root, false));
    }

    /** Starts a scatter of blocks of different sizes ({@code MPI_ISCATTERV}). @param sendbuf a direct buffer @param recvbuf a direct buffer */
    public final Request iScatterv(Buffer sendbuf, int[] sendcount, int[] displs, Datatype sendtype, Buffer recvbuf,
            int recvcount, Datatype recvtype, int root) throws MPIException {
        MPI.assertDirectBuffer(sendbuf, recvbuf);
        return start(c -> Scatter.scatterv(c, sendbuf, sendcount, displs, receiveType(c, sendtype, root), recvbuf,
            recvcount, Datatype.use(recvtype), root, false));
    }

    /** Starts {@code MPI_ISCATTERV} with {@code MPI_IN_PLACE}, at the root. @param sendbuf a direct buffer */
    public final Request iScatterv(Buffer sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root)
            throws MPIException {
        MPI.assertDirectBuffer(sendbuf);
        return start(c -> Scatter.scatterv(c, sendbuf, sendcount, displs, Datatype.use(sendtype), null, 0, null, root,
            true));
    }

    /** Starts {@code MPI_ISCATTERV} at the ranks other than the root, when the root scatters in place. @param recvbuf a direct buffer */
    public final Request iScatterv(Buffer recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        MPI.assertDirectBuffer(recvbuf);
        return start(c -> Scatter.scatterv(c, null, null, null, null, recvbuf, recvcount, Datatype.use(recvtype), root,
            false));
    }

    /** Gathers every rank's block at every rank, rank {@code i}'s at element {@code i * recvcount} ({@code MPI_ALLGATHER}). */
    public final void allGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
            Datatype recvtype) throws MPIException {
        run(c -> AllGather.allGather(c, sendbuf, sendcount, Datatype.use(sendtype), recvbuf, recvcount,
            Datatype.use(recvtype), false));
    }

    /** {@code MPI_ALLGATHER} with {@code MPI_IN_PLACE}: each rank's block is in place in {@code buf} already. */
    public final void allGather(Object buf, int count, Datatype type) throws MPIException {
        run(c -> AllGather.allGather(c, null, 0, null, buf, count, Datatype.use(type), true));
    }

    /** Starts an allgather ({@code MPI_IALLGATHER}). @param sendbuf a direct buffer @param recvbuf a direct buffer */
    public final Request iAllGather(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount,
            Datatype recvtype) throws MPIException {
        MPI.assertDirectBuffer(sendbuf, recvbuf);
        return start(c -> AllGather.allGather(c, sendbuf, sendcount, Datatype.use(sendtype), recvbuf, recvcount,
            Datatype.use(recvtype), false));
    }

    /** Starts {@code MPI_IALLGATHER} with {@code MPI_IN_PLACE}. @param buf a direct buffer */
    public final Request iAllGather(Buffer buf, int count, Datatype type) throws MPIException {
        MPI.assertDirectBuffer(buf);
        return start(c -> AllGather.allGather(c, null, 0, null, buf, count, Datatype.use(type), true));
    }

    /**
     * Gathers blocks of different sizes at every rank ({@code MPI_ALLGATHERV}).
     *
     * @param recvcount elements from each rank
     * @param displs where each rank's block starts, in elements of {@code recvtype}
     */
    public final void allGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
            int[] displs, Datatype recvtype) throws MPIException {
        run(c -> AllGather.allGatherv(c, sendbuf, sendcount, Datatype.use(sendtype), recvbuf, recvcount, displs,
            Datatype.use(recvtype), false));
    }

    /** {@code MPI_ALLGATHERV} with {@code MPI_IN_PLACE}: each rank's block is in place in {@code recvbuf} already. */
    public final void allGatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        run(c -> AllGather.allGatherv(c, null, 0, null, recvbuf, recvcount, displs, Datatype.use(recvtype), true));
    }

    /** Starts {@code MPI_IALLGATHERV}. @param sendbuf a direct buffer @param recvbuf a direct buffer */
    public final Request iAllGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf,
            int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        MPI.assertDirectBuffer(sendbuf, recvbuf);
        return start(c -> AllGather.allGatherv(c, sendbuf, sendcount, Datatype.use(sendtype), recvbuf, recvcount,
            displs, Datatype.use(recvtype), false));
    }

    /** Starts {@code MPI_IALLGATHERV} with {@code MPI_IN_PLACE}. @param buf a direct buffer */
    public final Request iAllGatherv(Buffer buf, int[] count, int[] displs, Datatype type) throws MPIException {
        MPI.assertDirectBuffer(buf);
        return start(c -> AllGather.allGatherv(c, null, 0, null, buf, count, displs, Datatype.use(type), true));
    }

    /** Sends block {@code j} of {@code sendbuf} to rank {@code j} and receives rank {@code i}'s into block {@code i} ({@code MPI_ALLTOALL}). */
    public final void allToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
            Datatype recvtype) throws MPIException {
        run(c -> AllToAll.allToAll(c, sendbuf, sendcount, Datatype.use(sendtype), recvbuf, recvcount,
            Datatype.use(recvtype)));
    }

    /** Starts {@code MPI_IALLTOALL}. @param sendbuf a direct buffer @param recvbuf a direct buffer */
    public final Request iAllToAll(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount,
            Datatype recvtype) throws MPIException {
        MPI.assertDirectBuffer(sendbuf, recvbuf);
        return start(c -> AllToAll.allToAll(c, sendbuf, sendcount, Datatype.use(sendtype), recvbuf, recvcount,
            Datatype.use(recvtype)));
    }

    /**
     * {@code MPI_ALLTOALLV}: blocks of different sizes.
     *
     * @param sdispls where each block starts in {@code sendbuf}, in elements of {@code sendtype}
     * @param rdispls where each block starts in {@code recvbuf}, in elements of {@code recvtype}
     */
    public final void allToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype, Object recvbuf,
            int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        run(c -> AllToAll.allToAllv(c, sendbuf, sendcount, sdispls, Datatype.use(sendtype), recvbuf, recvcount,
            rdispls, Datatype.use(recvtype)));
    }

    /** Starts {@code MPI_IALLTOALLV}. @param sendbuf a direct buffer @param recvbuf a direct buffer */
    public final Request iAllToAllv(Buffer sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
            Buffer recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        MPI.assertDirectBuffer(sendbuf, recvbuf);
        return start(c -> AllToAll.allToAllv(c, sendbuf, sendcount, sdispls, Datatype.use(sendtype), recvbuf,
            recvcount, rdispls, Datatype.use(recvtype)));
    }

    /**
     * {@code MPI_ALLTOALLW}: blocks of different sizes and types.
     *
     * @param sDispls where each block starts in {@code sendBuf}, in bytes
     * @param rDispls where each block starts in {@code recvBuf}, in bytes
     */
    public final void allToAllw(Object sendBuf, int[] sendCount, int[] sDispls, Datatype[] sendTypes,
            Object recvBuf, int[] recvCount, int[] rDispls, Datatype[] recvTypes) throws MPIException {
        run(c -> AllToAll.allToAllw(c, sendBuf, sendCount, sDispls, maps(sendTypes), recvBuf, recvCount, rDispls,
            maps(recvTypes)));
    }

    /** Starts {@code MPI_IALLTOALLW}. @param sendBuf a direct buffer @param recvBuf a direct buffer */
    public final Request iAllToAllw(Buffer sendBuf, int[] sendCount, int[] sDispls, Datatype[] sendTypes,
            Buffer recvBuf, int[] recvCount, int[] rDispls, Datatype[] recvTypes) throws MPIException {
        MPI.assertDirectBuffer(sendBuf, recvBuf);
        return start(c -> AllToAll.allToAllw(c, sendBuf, sendCount, sDispls, maps(sendTypes), recvBuf, recvCount,
            rDispls, maps(recvTypes)));
    }

    private static Typemap[] maps(Datatype[] types) {
        if (types == null) {
            throw new MpiError(ErrorClass.ERR_TYPE, "the array of datatypes is null");
        }
        Typemap[] maps = new Typemap[types.length];
        for (int i = 0; i < types.length; i++) {
            maps[i] = Datatype.use(types[i]);
        }
        return maps;
    }

    /**
     * Sends {@code sendbuf} to every neighbour of a Cartesian communicator and receives each
     * neighbour's block ({@code MPI_NEIGHBOR_ALLGATHER}). Neighbours are, for each dimension, the
     * rank one below and the rank one above ({@link CartComm#shift} by 1).
     */
    public final void neighborAllGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
            int recvcount, Datatype recvtype) throws MPIException {
        Communicator cart = comm();
        run(c -> Neighbours.allGather(c, cart.neighbours(), sendbuf, sendcount, Datatype.use(sendtype), recvbuf,
            recvcount, Datatype.use(recvtype)));
    }

    /** Starts {@code MPI_INEIGHBOR_ALLGATHER}. @param sendbuf a direct buffer @param recvbuf a direct buffer */
    public final Request iNeighborAllGather(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf,
            int recvcount, Datatype recvtype) throws MPIException {
        MPI.assertDirectBuffer(sendbuf, recvbuf);
        Communicator cart = comm();
        return start(c -> Neighbours.allGather(c, cart.neighbours(), sendbuf, sendcount, Datatype.use(sendtype),
            recvbuf, recvcount, Datatype.use(recvtype)));
    }

    /** {@code MPI_NEIGHBOR_ALLGATHERV}: neighbours' blocks of different sizes. */
    public final void neighborAllGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
            int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        Communicator cart = comm();
        run(c -> Neighbours.allGatherv(c, cart.neighbours(), sendbuf, sendcount, Datatype.use(sendtype), recvbuf,
            recvcount, displs, Datatype.use(recvtype)));
    }

    /** Starts {@code MPI_INEIGHBOR_ALLGATHERV}. @param sendbuf a direct buffer @param recvbuf a direct buffer */
    public final Request iNeighborAllGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf,
            int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        MPI.assertDirectBuffer(sendbuf, recvbuf);
        Communicator cart = comm();
        return start(c -> Neighbours.allGatherv(c, cart.neighbours(), sendbuf, sendcount, Datatype.use(sendtype),
            recvbuf, recvcount, displs, Datatype.use(recvtype)));
    }

    /** Sends block {@code j} of {@code sendbuf} to neighbour {@code j} and receives neighbour {@code j}'s into block {@code j} ({@code MPI_NEIGHBOR_ALLTOALL}). */
    public final void neighborAllToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
            int recvcount, Datatype recvtype) throws MPIException {
        Communicator cart = comm();
        run(c -> Neighbours.allToAll(c, cart.neighbours(), sendbuf, sendcount, Datatype.use(sendtype), recvbuf,
            recvcount, Datatype.use(recvtype)));
    }

    /** Starts {@code MPI_INEIGHBOR_ALLTOALL}. @param sendbuf a direct buffer @param recvbuf a direct buffer */
    public final Request iNeighborAllToAll(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf,
            int recvcount, Datatype recvtype) throws MPIException {
        MPI.assertDirectBuffer(sendbuf, recvbuf);
        Communicator cart = comm();
        return start(c -> Neighbours.allToAll(c, cart.neighbours(), sendbuf, sendcount, Datatype.use(sendtype),
            recvbuf, recvcount, Datatype.use(recvtype)));
    }

    /** {@code MPI_NEIGHBOR_ALLTOALLV}: blocks of different sizes. */
    public final void neighborAllToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
            Object recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        Communicator cart = comm();
        run(c -> Neighbours.allToAllv(c, cart.neighbours(), sendbuf, sendcount, sdispls, Datatype.use(sendtype),
            recvbuf, recvcount, rdispls, Datatype.use(recvtype)));
    }

    /** Starts {@code MPI_INEIGHBOR_ALLTOALLV}. @param sendbuf a direct buffer @param recvbuf a direct buffer */
    public final Request iNeighborAllToAllv(Buffer sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
            Buffer recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        MPI.assertDirectBuffer(sendbuf, recvbuf);
        Communicator cart = comm();
        return start(c -> Neighbours.allToAllv(c, cart.neighbours(), sendbuf, sendcount, sdispls,
            Datatype.use(sendtype), recvbuf, recvcount, rdispls, Datatype.use(recvtype)));
    }

    /** Reduces every rank's {@code sendbuf} with {@code op} into the root's {@code recvbuf} ({@code MPI_REDUCE}). */
    public final void reduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root)
            throws MPIException {
        run(c -> Reduce.reduce(c, sendbuf, recvbuf, count, Datatype.use(type), Op.of(op, type), root, false, true));
    }

    /**
     * {@code MPI_REDUCE} with {@code MPI_IN_PLACE}: at the root {@code buf} holds its data and
     * receives the result; elsewhere it is the send buffer.
     */
    public final void reduce(Object buf, int count, Datatype type, Op op, int root) throws MPIException {
        run(c -> Reduce.reduce(c, buf, buf, count, Datatype.use(type), Op.of(op, type), root, c.rank() == root, true));
    }

    /** Starts {@code MPI_IREDUCE}. @param sendbuf a direct buffer @param recvbuf a direct buffer */
    public final Request iReduce(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op, int root)
            throws MPIException {
        MPI.assertDirectBuffer(sendbuf, recvbuf);
        return start(c -> Reduce.reduce(c, sendbuf, recvbuf, count, Datatype.use(type), Op.of(op, type), root,
            false, false));
    }

    /** Starts {@code MPI_IREDUCE} with {@code MPI_IN_PLACE} at the root. @param buf a direct buffer */
    public final Request iReduce(Buffer buf, int count, Datatype type, Op op, int root) throws MPIException {
        MPI.assertDirectBuffer(buf);
        return start(c -> Reduce.reduce(c, buf, buf, count, Datatype.use(type), Op.of(op, type), root,
            c.rank() == root, false));
    }

    /** Reduces every rank's {@code sendbuf} with {@code op} into every rank's {@code recvbuf} ({@code MPI_ALLREDUCE}). */
    public final void allReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        run(c -> AllReduce.allReduce(c, sendbuf, recvbuf, count, Datatype.use(type), Op.of(op, type), false, true));
    }

    /** {@code MPI_ALLREDUCE} with {@code MPI_IN_PLACE}: {@code buf} holds this rank's data and receives the result. */
    public final void allReduce(Object buf, int count, Datatype type, Op op) throws MPIException {
        run(c -> AllReduce.allReduce(c, null, buf, count, Datatype.use(type), Op.of(op, type), true, true));
    }

    /**
     * Starts {@code MPI_IALLREDUCE}; it progresses as messages arrive, while the application
     * computes. @param sendbuf a direct buffer @param recvbuf a direct buffer
     */
    public final Request iAllReduce(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op)
            throws MPIException {
        MPI.assertDirectBuffer(sendbuf, recvbuf);
        return start(c -> AllReduce.allReduce(c, sendbuf, recvbuf, count, Datatype.use(type), Op.of(op, type),
            false, false));
    }

    /** Starts {@code MPI_IALLREDUCE} with {@code MPI_IN_PLACE}. @param buf a direct buffer */
    public final Request iAllReduce(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        MPI.assertDirectBuffer(buf);
        return start(c -> AllReduce.allReduce(c, null, buf, count, Datatype.use(type), Op.of(op, type), true, false));
    }

    /**
     * Reduces every rank's vector with {@code op} and scatters the result: block {@code i},
     * {@code recvcounts[i]} elements, to rank {@code i} ({@code MPI_REDUCE_SCATTER}).
     */
    public final void reduceScatter(Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op)
            throws MPIException {
        run(c -> ReduceScatter.reduceScatter(c, sendbuf, recvbuf, recvcounts, Datatype.use(type), Op.of(op, type),
            false, "MPI_Reduce_scatter"));
    }

    /** {@code MPI_REDUCE_SCATTER} with {@code MPI_IN_PLACE}: {@code buf} holds the vector and receives this rank's block at its start. */
    public final void reduceScatter(Object buf, int[] counts, Datatype type, Op op) throws MPIException {
        run(c -> ReduceScatter.reduceScatter(c, null, buf, counts, Datatype.use(type), Op.of(op, type), true,
            "MPI_Reduce_scatter"));
    }

    /** Starts {@code MPI_IREDUCE_SCATTER}. @param sendbuf a direct buffer @param recvbuf a direct buffer */
    public final Request iReduceScatter(Buffer sendbuf, Buffer recvbuf, int[] recvcounts, Datatype type, Op op)
            throws MPIException {
        MPI.assertDirectBuffer(sendbuf, recvbuf);
        return start(c -> ReduceScatter.reduceScatter(c, sendbuf, recvbuf, recvcounts, Datatype.use(type),
            Op.of(op, type), false, "MPI_Reduce_scatter"));
    }

    /** Starts {@code MPI_IREDUCE_SCATTER} with {@code MPI_IN_PLACE}. @param buf a direct buffer */
    public final Request iReduceScatter(Buffer buf, int[] counts, Datatype type, Op op) throws MPIException {
        MPI.assertDirectBuffer(buf);
        return start(c -> ReduceScatter.reduceScatter(c, null, buf, counts, Datatype.use(type), Op.of(op, type),
            true, "MPI_Reduce_scatter"));
    }

    /** {@code MPI_REDUCE_SCATTER_BLOCK}: {@code recvcount} elements of the result to each rank. */
    public final void reduceScatterBlock(Object sendbuf, Object recvbuf, int recvcount, Datatype type, Op op)
            throws MPIException {
        run(c -> ReduceScatter.reduceScatter(c, sendbuf, recvbuf, ReduceScatter.blocks(c.size(), recvcount),
            Datatype.use(type), Op.of(op, type), false, "MPI_Reduce_scatter_block"));
    }

    /** {@code MPI_REDUCE_SCATTER_BLOCK} with {@code MPI_IN_PLACE}: {@code buf} holds the vector and receives this rank's block at its start. */
    public final void reduceScatterBlock(Object buf, int count, Datatype type, Op op) throws MPIException {
        run(c -> ReduceScatter.reduceScatter(c, null, buf, ReduceScatter.blocks(c.size(), count), Datatype.use(type),
            Op.of(op, type), true, "MPI_Reduce_scatter_block"));
    }

    /** Starts {@code MPI_IREDUCE_SCATTER_BLOCK}. @param sendbuf a direct buffer @param recvbuf a direct buffer */
    public final Request iReduceScatterBlock(Buffer sendbuf, Buffer recvbuf, int recvcount, Datatype type, Op op)
            throws MPIException {
        MPI.assertDirectBuffer(sendbuf, recvbuf);
        return start(c -> ReduceScatter.reduceScatter(c, sendbuf, recvbuf, ReduceScatter.blocks(c.size(), recvcount),
            Datatype.use(type), Op.of(op, type), false, "MPI_Reduce_scatter_block"));
    }

    /** Starts {@code MPI_IREDUCE_SCATTER_BLOCK} with {@code MPI_IN_PLACE}. @param buf a direct buffer */
    public final Request iReduceScatterBlock(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        MPI.assertDirectBuffer(buf);
        return start(c -> ReduceScatter.reduceScatter(c, null, buf, ReduceScatter.blocks(c.size(), count),
            Datatype.use(type), Op.of(op, type), true, "MPI_Reduce_scatter_block"));
    }

    /**
     * Combines {@code inBuf} into {@code inOutBuf} with {@code op} on this rank: {@code inOutBuf = inBuf
     * op inOutBuf} ({@code MPI_REDUCE_LOCAL}).
     */
    public static void reduceLocal(Object inBuf, Object inOutBuf, int count, Datatype type, Op op) throws MPIException {
        MPI.check();
        try {
            Reduce.local(inBuf, inOutBuf, count, Datatype.use(type), Op.of(op, type));
        } catch (MpiError e) {
            throw Errors.raise(e);
        }
    }

    /** Names the communicator ({@code MPI_COMM_SET_NAME}). */
    public final void setName(String name) throws MPIException {
        Communicator c = comm();
        if (name == null || name.length() > MPI.MAX_OBJECT_NAME) {
            throw Errors.raise(c, Errors.argument("a communicator name must be at most " + MPI.MAX_OBJECT_NAME
                + " characters"));
        }
        c.name(name);
    }

    /** @return the communicator's name ({@code MPI_COMM_GET_NAME}) */
    public final String getName() throws MPIException {
        return comm().name();
    }

    /** How a non-blocking or persistent call starts its communication. */
    private enum Mode {
        STANDARD, SYNCHRONOUS, BUFFERED, RECEIVE;

        Operation start(Communicator c, Object buf, int count, Typemap map, int peer, int tag) throws MpiError {
            return switch (this) {
                case STANDARD -> c.send(buf, count, map, peer, tag, false);
                case SYNCHRONOUS -> c.send(buf, count, map, peer, tag, true);
                case BUFFERED -> c.bufferedSend(buf, count, map, peer, tag, bufferedSends());
                case RECEIVE -> c.receive(buf, count, map, peer, tag);
            };
        }

        private static BufferedSends bufferedSends() {
            Session s = MPI.current();
            if (s == null) {
                throw new MpiError(ErrorClass.ERR_OTHER, "MPI is not running");
            }
            return s.buffered();
        }
    }
}
