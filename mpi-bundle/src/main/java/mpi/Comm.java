package mpi;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.comm.Communicator;
import io.polylink.mpi.internal.comm.Derive;
import io.polylink.mpi.internal.comm.ErrorMode;
import io.polylink.mpi.internal.boot.Session;
import io.polylink.mpi.internal.datatype.Kind;
import io.polylink.mpi.internal.datatype.Packing;
import io.polylink.mpi.internal.datatype.Typemap;
import io.polylink.mpi.internal.p2p.BufferedSends;
import io.polylink.mpi.internal.request.Operation;
import java.nio.Buffer;

/**
 * A communicator ({@code MPI_Comm}): a group of ranks and a communication context, for
 * point-to-point messaging, barriers and the creation of further communicators.
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

    /** Waits until every rank of the communicator called it ({@code MPI_BARRIER}). */
    public final void barrier() throws MPIException {
        Communicator c = comm();
        try {
            c.barrier();
        } catch (MpiError e) {
            throw Errors.raise(c, e);
        }
    }

    /**
     * Starts a barrier that completes once every rank started it ({@code MPI_IBARRIER}); it
     * progresses on arrivals, without further calls.
     */
    public final Request iBarrier() throws MPIException {
        Communicator c = comm();
        try {
            return new Request(c.startBarrier(), c);
        } catch (MpiError e) {
            throw Errors.raise(c, e);
        }
    }

    /** {@code MPI_Bcast}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final void bcast(Object buf, int count, Datatype type, int root) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Bcast");
    }

    /** {@code MPI_Ibcast}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Request iBcast(Buffer buf, int count, Datatype type, int root) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Ibcast");
    }

    /** {@code MPI_Gather}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final void gather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
            Datatype recvtype, int root) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Gather");
    }

    /** {@code MPI_Gather}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final void gather(Object buf, int count, Datatype type, int root) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Gather");
    }

    /** {@code MPI_Igather}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Request iGather(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount,
            Datatype recvtype, int root) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Igather");
    }

    /** {@code MPI_Igather}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Request iGather(Buffer buf, int count, Datatype type, int root) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Igather");
    }

    /** {@code MPI_Gatherv}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final void gatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
            int[] displs, Datatype recvtype, int root) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Gatherv");
    }

    /** {@code MPI_Gatherv}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final void gatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Gatherv");
    }

    /** {@code MPI_Gatherv}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final void gatherv(Object sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Gatherv");
    }

    /** {@code MPI_Igatherv}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Request iGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int[] recvcount,
            int[] displs, Datatype recvtype, int root) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Igatherv");
    }

    /** {@code MPI_Igatherv}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Request iGatherv(Buffer recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Igatherv");
    }

    /** {@code MPI_Igatherv}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Request iGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Igatherv");
    }

    /** {@code MPI_Scatter}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final void scatter(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
            Datatype recvtype, int root) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Scatter");
    }

    /** {@code MPI_Scatter}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final void scatter(Object buf, int count, Datatype type, int root) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Scatter");
    }

    /** {@code MPI_Iscatter}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Request iScatter(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount,
            Datatype recvtype, int root) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Iscatter");
    }

    /** {@code MPI_Iscatter}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Request iScatter(Buffer buf, int count, Datatype type, int root) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Iscatter");
    }

    /** {@code MPI_Scatterv}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, Object recvbuf,
            int recvcount, Datatype recvtype, int root) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Scatterv");
    }

    /** {@code MPI_Scatterv}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root)
            throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Scatterv");
    }

    /** {@code MPI_Scatterv}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final void scatterv(Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Scatterv");
    }

    /** {@code MPI_Iscatterv}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Request iScatterv(Buffer sendbuf, int[] sendcount, int[] displs, Datatype sendtype, Buffer recvbuf,
            int recvcount, Datatype recvtype, int root) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Iscatterv");
    }

    /** {@code MPI_Iscatterv}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Request iScatterv(Buffer sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root)
            throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Iscatterv");
    }

    /** {@code MPI_Iscatterv}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Request iScatterv(Buffer recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Iscatterv");
    }

    /** {@code MPI_Allgather}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final void allGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
            Datatype recvtype) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Allgather");
    }

    /** {@code MPI_Allgather}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final void allGather(Object buf, int count, Datatype type) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Allgather");
    }

    /** {@code MPI_Iallgather}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Request iAllGather(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount,
            Datatype recvtype) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Iallgather");
    }

    /** {@code MPI_Iallgather}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Request iAllGather(Buffer buf, int count, Datatype type) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Iallgather");
    }

    /** {@code MPI_Allgatherv}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final void allGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
            int[] displs, Datatype recvtype) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Allgatherv");
    }

    /** {@code MPI_Allgatherv}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final void allGatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Allgatherv");
    }

    /** {@code MPI_Iallgatherv}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Request iAllGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf,
            int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Iallgatherv");
    }

    /** {@code MPI_Iallgatherv}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Request iAllGatherv(Buffer buf, int[] count, int[] displs, Datatype type) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Iallgatherv");
    }

    /** {@code MPI_Alltoall}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final void allToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
            Datatype recvtype) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Alltoall");
    }

    /** {@code MPI_Ialltoall}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Request iAllToAll(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount,
            Datatype recvtype) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Ialltoall");
    }

    /** {@code MPI_Alltoallv}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final void allToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype, Object recvbuf,
            int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Alltoallv");
    }

    /** {@code MPI_Ialltoallv}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Request iAllToAllv(Buffer sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
            Buffer recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Ialltoallv");
    }

    /** {@code MPI_Alltoallw}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final void allToAllw(Object sendBuf, int[] sendCount, int[] sDispls, Datatype[] sendTypes,
            Object recvBuf, int[] recvCount, int[] rDispls, Datatype[] recvTypes) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Alltoallw");
    }

    /** {@code MPI_Ialltoallw}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Request iAllToAllw(Buffer sendBuf, int[] sendCount, int[] sDispls, Datatype[] sendTypes,
            Buffer recvBuf, int[] recvCount, int[] rDispls, Datatype[] recvTypes) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Ialltoallw");
    }

    /** {@code MPI_Neighbor_allgather}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final void neighborAllGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
            int recvcount, Datatype recvtype) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Neighbor_allgather");
    }

    /** {@code MPI_Ineighbor_allgather}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Request iNeighborAllGather(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf,
            int recvcount, Datatype recvtype) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Ineighbor_allgather");
    }

    /** {@code MPI_Neighbor_allgatherv}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final void neighborAllGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
            int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Neighbor_allgatherv");
    }

    /** {@code MPI_Ineighbor_allgatherv}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Request iNeighborAllGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf,
            int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Ineighbor_allgatherv");
    }

    /** {@code MPI_Neighbor_alltoall}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final void neighborAllToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
            int recvcount, Datatype recvtype) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Neighbor_alltoall");
    }

    /** {@code MPI_Ineighbor_alltoall}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Request iNeighborAllToAll(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf,
            int recvcount, Datatype recvtype) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Ineighbor_alltoall");
    }

    /** {@code MPI_Neighbor_alltoallv}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final void neighborAllToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
            Object recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Neighbor_alltoallv");
    }

    /** {@code MPI_Ineighbor_alltoallv}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Request iNeighborAllToAllv(Buffer sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
            Buffer recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Ineighbor_alltoallv");
    }

    /** {@code MPI_Reduce}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final void reduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root)
            throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Reduce");
    }

    /** {@code MPI_Reduce}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final void reduce(Object buf, int count, Datatype type, Op op, int root) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Reduce");
    }

    /** {@code MPI_Ireduce}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Request iReduce(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op, int root)
            throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Ireduce");
    }

    /** {@code MPI_Ireduce}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Request iReduce(Buffer buf, int count, Datatype type, Op op, int root) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Ireduce");
    }

    /** {@code MPI_Allreduce}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final void allReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Allreduce");
    }

    /** {@code MPI_Allreduce}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final void allReduce(Object buf, int count, Datatype type, Op op) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Allreduce");
    }

    /** {@code MPI_Iallreduce}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Request iAllReduce(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op)
            throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Iallreduce");
    }

    /** {@code MPI_Iallreduce}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Request iAllReduce(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Iallreduce");
    }

    /** {@code MPI_Reduce_scatter}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final void reduceScatter(Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op)
            throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Reduce_scatter");
    }

    /** {@code MPI_Reduce_scatter}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final void reduceScatter(Object buf, int[] counts, Datatype type, Op op) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Reduce_scatter");
    }

    /** {@code MPI_Ireduce_scatter}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Request iReduceScatter(Buffer sendbuf, Buffer recvbuf, int[] recvcounts, Datatype type, Op op)
            throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Ireduce_scatter");
    }

    /** {@code MPI_Ireduce_scatter}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Request iReduceScatter(Buffer buf, int[] counts, Datatype type, Op op) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Ireduce_scatter");
    }

    /** {@code MPI_Reduce_scatter_block}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final void reduceScatterBlock(Object sendbuf, Object recvbuf, int recvcount, Datatype type, Op op)
            throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Reduce_scatter_block");
    }

    /** {@code MPI_Reduce_scatter_block}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final void reduceScatterBlock(Object buf, int count, Datatype type, Op op) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Reduce_scatter_block");
    }

    /** {@code MPI_Ireduce_scatter_block}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Request iReduceScatterBlock(Buffer sendbuf, Buffer recvbuf, int recvcount, Datatype type, Op op)
            throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Ireduce_scatter_block");
    }

    /** {@code MPI_Ireduce_scatter_block}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Request iReduceScatterBlock(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Ireduce_scatter_block");
    }

    /** {@code MPI_Reduce_local}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public static void reduceLocal(Object inBuf, Object inOutBuf, int count, Datatype type, Op op) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Reduce_local");
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
