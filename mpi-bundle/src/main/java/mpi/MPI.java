package mpi;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.boot.Session;
import io.polylink.mpi.internal.comm.ErrorMode;
import io.polylink.mpi.internal.comm.Groups;
import io.polylink.mpi.internal.comm.Keyvals;
import io.polylink.mpi.internal.datatype.DirectViews;
import io.polylink.mpi.internal.p2p.BufferedSends;
import io.polylink.mpi.internal.request.Idle;
import io.polylink.mpi.internal.shared.OwnSegments;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.util.Map;

/**
 * The MPI environment: initialization and finalization, the predefined communicators, datatypes,
 * operations and error handlers, the constants, and direct buffers.
 *
 * <p>{@link #Init} starts this process as one rank of a job, from the variables its launcher set
 * (see the bundle's documentation); without them it runs as a job of one rank. The thread level
 * is always {@link #THREAD_MULTIPLE}: any thread may call any method at any time.
 */
public final class MPI {

    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    /** The rank of this process, between {@link #Init} and {@link #Finalize}; {@code null} before. */
    private static volatile Session session;
    private static volatile boolean initialized;
    private static volatile boolean finalized;

    public static final int THREAD_SINGLE = 0;
    public static final int THREAD_FUNNELED = 1;
    public static final int THREAD_SERIALIZED = 2;
    public static final int THREAD_MULTIPLE = 3;

    public static final int GRAPH = 2;
    public static final int DIST_GRAPH = 3;
    public static final int CART = 1;

    public static final int ANY_SOURCE = -1;
    public static final int ANY_TAG = -1;
    public static final int PROC_NULL = Groups.PROC_NULL;
    public static final int UNDEFINED = Groups.UNDEFINED;
    public static final int ROOT = -4;

    public static final int IDENT = Groups.IDENT;
    public static final int CONGRUENT = Groups.CONGRUENT;
    public static final int SIMILAR = Groups.SIMILAR;
    public static final int UNEQUAL = Groups.UNEQUAL;

    /** Predefined attribute keys. */
    public static final int TAG_UB = 0;
    public static final int HOST = 1;
    public static final int IO = 2;
    public static final int WTIME_IS_GLOBAL = 3;
    public static final int APPNUM = 4;
    public static final int LASTUSEDCODE = 5;
    public static final int UNIVERSE_SIZE = 6;
    public static final int WIN_BASE = 7;
    public static final int WIN_SIZE = 8;
    public static final int WIN_DISP_UNIT = 9;

    /** The version of the MPI standard followed. */
    public static final int VERSION = 3;
    public static final int SUBVERSION = 1;

    public static final int KEYVAL_INVALID = Keyvals.INVALID;
    public static final int BSEND_OVERHEAD = BufferedSends.OVERHEAD;
    public static final int MAX_OBJECT_NAME = 64;
    public static final int MAX_PORT_NAME = 1024;
    public static final int MAX_DATAREP_STRING = 128;
    public static final int MAX_INFO_KEY = 36;
    public static final int MAX_INFO_VAL = 256;

    public static final int ORDER_C = 0;
    public static final int ORDER_FORTRAN = 1;
    public static final int DISTRIBUTE_BLOCK = 0;
    public static final int DISTRIBUTE_CYCLIC = 1;
    public static final int DISTRIBUTE_NONE = 2;
    public static final int DISTRIBUTE_DFLT_DARG = -1;

    public static final int MODE_CREATE = 1;
    public static final int MODE_RDONLY = 2;
    public static final int MODE_WRONLY = 4;
    public static final int MODE_RDWR = 8;
    public static final int MODE_DELETE_ON_CLOSE = 16;
    public static final int MODE_UNIQUE_OPEN = 32;
    public static final int MODE_EXCL = 64;
    public static final int MODE_APPEND = 128;
    public static final int MODE_SEQUENTIAL = 256;
    public static final int DISPLACEMENT_CURRENT = -54278278;
    public static final int SEEK_SET = 600;
    public static final int SEEK_CUR = 602;
    public static final int SEEK_END = 604;

    public static final int MODE_NOCHECK = 1;
    public static final int MODE_NOPRECEDE = 2;
    public static final int MODE_NOPUT = 4;
    public static final int MODE_NOSTORE = 8;
    public static final int MODE_NOSUCCEED = 16;
    public static final int LOCK_EXCLUSIVE = 1;
    public static final int LOCK_SHARED = 2;

    /** Error classes, which are also the error codes: Open MPI's values. */
    public static final int SUCCESS = ErrorClass.SUCCESS;
    public static final int ERR_BUFFER = ErrorClass.ERR_BUFFER;
    public static final int ERR_COUNT = ErrorClass.ERR_COUNT;
    public static final int ERR_TYPE = ErrorClass.ERR_TYPE;
    public static final int ERR_TAG = ErrorClass.ERR_TAG;
    public static final int ERR_COMM = ErrorClass.ERR_COMM;
    public static final int ERR_RANK = ErrorClass.ERR_RANK;
    public static final int ERR_REQUEST = ErrorClass.ERR_REQUEST;
    public static final int ERR_ROOT = ErrorClass.ERR_ROOT;
    public static final int ERR_GROUP = ErrorClass.ERR_GROUP;
    public static final int ERR_OP = ErrorClass.ERR_OP;
    public static final int ERR_TOPOLOGY = ErrorClass.ERR_TOPOLOGY;
    public static final int ERR_DIMS = ErrorClass.ERR_DIMS;
    public static final int ERR_ARG = ErrorClass.ERR_ARG;
    public static final int ERR_UNKNOWN = ErrorClass.ERR_UNKNOWN;
    public static final int ERR_TRUNCATE = ErrorClass.ERR_TRUNCATE;
    public static final int ERR_OTHER = ErrorClass.ERR_OTHER;
    public static final int ERR_INTERN = ErrorClass.ERR_INTERN;
    public static final int ERR_IN_STATUS = ErrorClass.ERR_IN_STATUS;
    public static final int ERR_PENDING = ErrorClass.ERR_PENDING;
    public static final int ERR_ACCESS = 20;
    public static final int ERR_AMODE = 21;
    public static final int ERR_ASSERT = 22;
    public static final int ERR_BAD_FILE = 23;
    public static final int ERR_BASE = 24;
    public static final int ERR_CONVERSION = 25;
    public static final int ERR_DISP = 26;
    public static final int ERR_DUP_DATAREP = 27;
    public static final int ERR_FILE_EXISTS = 28;
    public static final int ERR_FILE_IN_USE = 29;
    public static final int ERR_FILE = 30;
    public static final int ERR_INFO_KEY = ErrorClass.ERR_INFO_KEY;
    public static final int ERR_INFO_NOKEY = ErrorClass.ERR_INFO_NOKEY;
    public static final int ERR_INFO_VALUE = ErrorClass.ERR_INFO_VALUE;
    public static final int ERR_INFO = ErrorClass.ERR_INFO;
    public static final int ERR_IO = 35;
    public static final int ERR_KEYVAL = ErrorClass.ERR_KEYVAL;
    public static final int ERR_LOCKTYPE = 37;
    public static final int ERR_NAME = 38;
    public static final int ERR_NO_MEM = ErrorClass.ERR_NO_MEM;
    public static final int ERR_NOT_SAME = 40;
    public static final int ERR_NO_SPACE = 41;
    public static final int ERR_NO_SUCH_FILE = 42;
    public static final int ERR_PORT = 43;
    public static final int ERR_PROC_ABORTED = ErrorClass.ERR_PROC_ABORTED;
    public static final int ERR_QUOTA = 44;
    public static final int ERR_READ_ONLY = 45;
    public static final int ERR_RMA_CONFLICT = 46;
    public static final int ERR_RMA_SYNC = 47;
    public static final int ERR_SERVICE = 48;
    public static final int ERR_SIZE = 49;
    public static final int ERR_SPAWN = 50;
    public static final int ERR_UNSUPPORTED_DATAREP = 51;
    public static final int ERR_UNSUPPORTED_OPERATION = ErrorClass.ERR_UNSUPPORTED_OPERATION;
    public static final int ERR_WIN = 53;
    public static final int ERR_LASTCODE = ErrorClass.ERR_LASTCODE;
    /** Not an error class of Open MPI's C library; its own value here, so that it equals no other. */
    public static final int ERR_SYSRESOURCE = -2;

    public static final Datatype DATATYPE_NULL = Datatype.nullType();
    public static final Datatype BYTE = Datatype.basic(Datatype.BYTE);
    public static final Datatype CHAR = Datatype.basic(Datatype.CHAR);
    public static final Datatype SHORT = Datatype.basic(Datatype.SHORT);
    public static final Datatype BOOLEAN = Datatype.basic(Datatype.BOOLEAN);
    public static final Datatype INT = Datatype.basic(Datatype.INT);
    public static final Datatype LONG = Datatype.basic(Datatype.LONG);
    public static final Datatype FLOAT = Datatype.basic(Datatype.FLOAT);
    public static final Datatype DOUBLE = Datatype.basic(Datatype.DOUBLE);
    /** Bytes made by {@link Comm#pack}, for {@link Comm#unpack}. */
    public static final Datatype PACKED = Datatype.basic(Datatype.PACKED);
    public static final Datatype FLOAT_COMPLEX = Datatype.basic(Datatype.FLOAT_COMPLEX);
    public static final Datatype DOUBLE_COMPLEX = Datatype.basic(Datatype.DOUBLE_COMPLEX);
    /** Pair type of two ints, for {@link #int2}. */
    public static final Datatype INT2 = Datatype.basic(Datatype.INT2);
    /** Pair type of a short and an int, for {@link #shortInt}. */
    public static final Datatype SHORT_INT = Datatype.basic(Datatype.SHORT_INT);
    /** Pair type of a long and an int, for {@link #longInt}. */
    public static final Datatype LONG_INT = Datatype.basic(Datatype.LONG_INT);
    /** Pair type of a float and an int, for {@link #floatInt}. */
    public static final Datatype FLOAT_INT = Datatype.basic(Datatype.FLOAT_INT);
    /** Pair type of a double and an int, for {@link #doubleInt}. */
    public static final Datatype DOUBLE_INT = Datatype.basic(Datatype.DOUBLE_INT);

    /** Reads and writes {@link #INT2} data in byte buffers. */
    public static final Int2 int2 = new Int2(4, 4);
    /** Reads and writes {@link #SHORT_INT} data in byte buffers. */
    public static final ShortInt shortInt = new ShortInt(2, 4, 4);
    /** Reads and writes {@link #LONG_INT} data in byte buffers. */
    public static final LongInt longInt = new LongInt(8, 8, 4);
    /** Reads and writes {@link #FLOAT_INT} data in byte buffers. */
    public static final FloatInt floatInt = new FloatInt(4, 4);
    /** Reads and writes {@link #DOUBLE_INT} data in byte buffers. */
    public static final DoubleInt doubleInt = new DoubleInt(8, 4);

    public static final Op MAX = new Op(Op.MAX);
    public static final Op MIN = new Op(Op.MIN);
    public static final Op SUM = new Op(Op.SUM);
    public static final Op PROD = new Op(Op.PROD);
    public static final Op LAND = new Op(Op.LAND);
    public static final Op BAND = new Op(Op.BAND);
    public static final Op LOR = new Op(Op.LOR);
    public static final Op BOR = new Op(Op.BOR);
    public static final Op LXOR = new Op(Op.LXOR);
    public static final Op BXOR = new Op(Op.BXOR);
    /** Global minimum with its location; for {@link #INT2}, {@link #SHORT_INT}, {@link #LONG_INT}, {@link #FLOAT_INT} and {@link #DOUBLE_INT}. */
    public static final Op MINLOC = new Op(Op.MINLOC);
    /** Global maximum with its location; see {@link #MINLOC}. */
    public static final Op MAXLOC = new Op(Op.MAXLOC);
    public static final Op REPLACE = new Op(Op.REPLACE);
    public static final Op NO_OP = new Op(Op.NO_OP);

    public static final Request REQUEST_NULL = new Request();
    public static final Group GROUP_EMPTY = new Group(new int[0]);
    public static final Info INFO_ENV = Info.predefined(Map.of(
        "wdir", System.getProperty("user.dir", ""),
        "arch", System.getProperty("os.arch", ""),
        "thread_level", "MPI_THREAD_MULTIPLE"), false);
    public static final Info INFO_NULL = Info.predefined(Map.of(), true);

    public static final Errhandler ERRORS_ARE_FATAL = new Errhandler(ErrorMode.FATAL);
    public static final Errhandler ERRORS_ABORT = new Errhandler(ErrorMode.ABORT);
    public static final Errhandler ERRORS_RETURN = new Errhandler(ErrorMode.RETURN);

    /** Every rank of the job. */
    public static final Intracomm COMM_WORLD = new Intracomm(null);
    /** This rank alone. */
    public static final Intracomm COMM_SELF = new Intracomm(null);

    private MPI() {}

    /**
     * Starts MPI ({@code MPI_INIT}): this process becomes one rank of the job its launcher set up,
     * or a job of one rank without one.
     *
     * @param args the arguments of {@code main}
     * @return the arguments, unchanged
     * @throws MPIException if MPI was initialized already, the launch settings are wrong, or the
     *     other ranks did not appear in time
     */
    public static String[] Init(String[] args) throws MPIException {
        start();
        return args;
    }

    /**
     * Starts MPI with threads ({@code MPI_INIT_THREAD}).
     *
     * @param args the arguments of {@code main}
     * @param required the thread support the program needs
     * @return {@link #THREAD_MULTIPLE}, whatever was required
     * @throws MPIException as {@link #Init} does
     */
    public static int InitThread(String[] args, int required) throws MPIException {
        start();
        return THREAD_MULTIPLE;
    }

    private static synchronized void start() throws MPIException {
        if (initialized) {
            throw new MPIException(ERR_OTHER, ERR_OTHER, "MPI is already initialized.");
        }
        Session s;
        try {
            s = Session.start();
        } catch (MpiError e) {
            throw Errors.exception(e);
        }
        COMM_WORLD.bind(s.commWorld());
        COMM_SELF.bind(s.commSelf());
        session = s;
        initialized = true;
    }

    /** @return {@link #THREAD_MULTIPLE} ({@code MPI_QUERY_THREAD}) @throws MPIException if MPI is not running */
    public static int queryThread() throws MPIException {
        check();
        return THREAD_MULTIPLE;
    }

    /** @return whether this is the thread that called {@link #Init} ({@code MPI_IS_THREAD_MAIN}) */
    public static boolean isThreadMain() throws MPIException {
        return session().mainThread() == Thread.currentThread();
    }

    /**
     * Ends MPI ({@code MPI_FINALIZE}): returns once every rank called it and received what this
     * one sent, then closes this rank's context.
     *
     * @throws MPIException if MPI is not running, or another rank cannot be reached
     */
    public static void Finalize() throws MPIException {
        Session s = session();
        synchronized (MPI.class) {
            if (finalized) {
                throw new MPIException(ERR_OTHER, ERR_OTHER, "MPI is finalized.");
            }
            finalized = true;
        }
        try {
            s.finish();
        } catch (MpiError e) {
            throw Errors.exception(e);
        }
    }

    /** @return seconds since an arbitrary time in the past ({@code MPI_WTIME}) */
    public static double wtime() throws MPIException {
        check();
        return System.nanoTime() / 1e9;
    }

    /** @return the resolution of {@link #wtime}, in seconds ({@code MPI_WTICK}) */
    public static double wtick() throws MPIException {
        check();
        return 1e-9;
    }

    /** @return the version of the MPI standard followed ({@code MPI_GET_VERSION}) */
    public static Version getVersion() {
        return new Version(VERSION, SUBVERSION);
    }

    /** @return the library's name and version ({@code MPI_GET_LIBRARY_VERSION}) */
    public static String getLibVersion() {
        Package p = MPI.class.getPackage();
        String v = p == null ? null : p.getImplementationVersion();
        return "Polylink mpi" + (v == null ? "" : " " + v) + ": the Open MPI Java bindings' API on Polylink";
    }

    /** @return this host's name ({@code MPI_GET_PROCESSOR_NAME}) */
    public static String getProcessorName() throws MPIException {
        check();
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }

    /** @return whether {@link #Init} was called ({@code MPI_INITIALIZED}) */
    public static boolean isInitialized() throws MPIException {
        return initialized;
    }

    /** @return whether {@link #Finalize} was called ({@code MPI_FINALIZED}) */
    public static boolean isFinalized() throws MPIException {
        return finalized;
    }

    /**
     * Attaches the buffer buffered-mode sends pack into ({@code MPI_BUFFER_ATTACH}). Each message
     * takes its packed size plus {@link #BSEND_OVERHEAD} bytes until it is handed over.
     *
     * @throws MPIException {@code ERR_BUFFER} if a buffer is attached already
     */
    public static void attachBuffer(byte[] buffer) throws MPIException {
        Session s = session();
        try {
            s.buffered().attach(buffer);
        } catch (MpiError e) {
            throw Errors.raise(e);
        }
    }

    /**
     * Waits until every buffered message was handed over and detaches the buffer ({@code MPI_BUFFER_DETACH}).
     *
     * @return the buffer, or {@code null} if none was attached
     * @throws MPIException if a buffered send failed since the buffer was attached
     */
    public static byte[] detachBuffer() throws MPIException {
        Session s = session();
        try {
            idle().handBack(); // the buffered sends progress on the methods' threads while this one waits
            return s.buffered().detach();
        } catch (MpiError e) {
            throw Errors.raise(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw Errors.raise(new MpiError(ERR_OTHER, "detachBuffer was interrupted waiting for buffered sends"));
        }
    }

    /**
     * Controls profiling ({@code MPI_PCONTROL}). MPI defines it to have no effect unless a
     * profiling library intercepts it; none does here.
     *
     * @param level profiling level
     * @param obj profiling information
     */
    public static void pControl(int level, Object obj) {
        // No profiling library: MPI_Pcontrol has no effect, as the standard defines.
    }

    /**
     * @throws MPIException if MPI is not initialized, was finalized, or the job was aborted
     */
    protected static void check() throws MPIException {
        session();
    }

    /** @return the running rank @throws MPIException as {@link #check} */
    static Session session() throws MPIException {
        Session s = session;
        if (!initialized || s == null) {
            throw new MPIException(ERR_OTHER, ERR_OTHER, "MPI is not initialized.");
        }
        if (finalized) {
            throw new MPIException(ERR_OTHER, ERR_OTHER, "MPI is finalized.");
        }
        Session.Abort a = s.abort();
        if (a != null) {
            s.followAbort();
            throw Errors.exception(s.aborted(a));
        }
        return s;
    }

    /** @return the running rank, or {@code null} */
    static Session current() {
        return session;
    }

    /** @return how this rank's threads wait */
    static Idle idle() {
        Session s = session;
        return s == null ? Idle.DEFAULT : s.world().limits().idle();
    }

    /**
     * @return a direct byte buffer of {@code capacity} bytes, in native byte order. After
     *     {@code MPI.Init}, one larger than the eager limit lies in memory the host's ranks share: a
     *     large message sent from it to a rank on the same host is copied once, by the receiver,
     *     from where it lies (see docs/mpi.md#direct-buffers-shared-on-a-host)
     */
    public static ByteBuffer newByteBuffer(int capacity) {
        return directBytes(capacity);
    }

    /** @return a direct char buffer of {@code capacity} chars, in native byte order, shared as {@link #newByteBuffer} says */
    public static CharBuffer newCharBuffer(int capacity) {
        ByteBuffer bytes = directBytes(Math.multiplyExact(capacity, 2));
        return DirectViews.remember(bytes.asCharBuffer(), bytes, 0);
    }

    /** @return a direct short buffer of {@code capacity} shorts, in native byte order, shared as {@link #newByteBuffer} says */
    public static ShortBuffer newShortBuffer(int capacity) {
        ByteBuffer bytes = directBytes(Math.multiplyExact(capacity, 2));
        return DirectViews.remember(bytes.asShortBuffer(), bytes, 0);
    }

    /** @return a direct int buffer of {@code capacity} ints, in native byte order, shared as {@link #newByteBuffer} says */
    public static IntBuffer newIntBuffer(int capacity) {
        ByteBuffer bytes = directBytes(Math.multiplyExact(capacity, 4));
        return DirectViews.remember(bytes.asIntBuffer(), bytes, 0);
    }

    /** @return a direct long buffer of {@code capacity} longs, in native byte order, shared as {@link #newByteBuffer} says */
    public static LongBuffer newLongBuffer(int capacity) {
        ByteBuffer bytes = directBytes(Math.multiplyExact(capacity, 8));
        return DirectViews.remember(bytes.asLongBuffer(), bytes, 0);
    }

    /** @return a direct float buffer of {@code capacity} floats, in native byte order, shared as {@link #newByteBuffer} says */
    public static FloatBuffer newFloatBuffer(int capacity) {
        ByteBuffer bytes = directBytes(Math.multiplyExact(capacity, 4));
        return DirectViews.remember(bytes.asFloatBuffer(), bytes, 0);
    }

    /** @return a direct double buffer of {@code capacity} doubles, in native byte order, shared as {@link #newByteBuffer} says */
    public static DoubleBuffer newDoubleBuffer(int capacity) {
        ByteBuffer bytes = directBytes(Math.multiplyExact(capacity, 8));
        return DirectViews.remember(bytes.asDoubleBuffer(), bytes, 0);
    }

    /** @return a shared buffer of {@code capacity} bytes where the rank makes one, else an ordinary direct buffer */
    private static ByteBuffer directBytes(int capacity) {
        Session s = session;
        OwnSegments shared = s == null ? null : s.shared();
        ByteBuffer bytes = shared == null ? null : shared.allocate(capacity);
        return (bytes != null ? bytes : ByteBuffer.allocateDirect(capacity)).order(NATIVE);
    }

    /**
     * @param buf a buffer
     * @throws IllegalArgumentException if it is not direct, as non-blocking calls need
     */
    protected static void assertDirectBuffer(Buffer buf) {
        if (!buf.isDirect()) {
            throw new IllegalArgumentException("The buffer must be direct.");
        }
    }

    /**
     * @param sendbuf a send buffer
     * @param recvbuf a receive buffer
     * @throws IllegalArgumentException if one is not direct
     */
    protected static void assertDirectBuffer(Buffer sendbuf, Buffer recvbuf) {
        if (!sendbuf.isDirect()) {
            throw new IllegalArgumentException("The send buffer must be direct.");
        }
        if (!recvbuf.isDirect()) {
            throw new IllegalArgumentException("The recv. buffer must be direct.");
        }
    }

    /** @return whether {@code obj} is a direct buffer */
    protected static boolean isDirectBuffer(Object obj) {
        return obj instanceof Buffer b && b.isDirect();
    }

    /** @return whether {@code obj} is a heap buffer */
    protected static boolean isHeapBuffer(Object obj) {
        return obj instanceof Buffer b && !b.isDirect();
    }

    /**
     * @return a buffer sharing {@code buf}'s content from byte {@code offset} on, in native byte
     *     order; its first byte is what communication calls take as the buffer's start
     */
    public static ByteBuffer slice(ByteBuffer buf, int offset) {
        return DirectViews.remember(buf.duplicate().clear().position(offset).slice().order(NATIVE), buf, offset);
    }

    /** @return a buffer sharing {@code buf}'s content from char {@code offset} on */
    public static CharBuffer slice(CharBuffer buf, int offset) {
        return DirectViews.remember(buf.duplicate().clear().position(offset).slice(), buf, (long) offset * 2);
    }

    /** @return a buffer sharing {@code buf}'s content from short {@code offset} on */
    public static ShortBuffer slice(ShortBuffer buf, int offset) {
        return DirectViews.remember(buf.duplicate().clear().position(offset).slice(), buf, (long) offset * 2);
    }

    /** @return a buffer sharing {@code buf}'s content from int {@code offset} on */
    public static IntBuffer slice(IntBuffer buf, int offset) {
        return DirectViews.remember(buf.duplicate().clear().position(offset).slice(), buf, (long) offset * 4);
    }

    /** @return a buffer sharing {@code buf}'s content from long {@code offset} on */
    public static LongBuffer slice(LongBuffer buf, int offset) {
        return DirectViews.remember(buf.duplicate().clear().position(offset).slice(), buf, (long) offset * 8);
    }

    /** @return a buffer sharing {@code buf}'s content from float {@code offset} on */
    public static FloatBuffer slice(FloatBuffer buf, int offset) {
        return DirectViews.remember(buf.duplicate().clear().position(offset).slice(), buf, (long) offset * 4);
    }

    /** @return a buffer sharing {@code buf}'s content from double {@code offset} on */
    public static DoubleBuffer slice(DoubleBuffer buf, int offset) {
        return DirectViews.remember(buf.duplicate().clear().position(offset).slice(), buf, (long) offset * 8);
    }

    /** @return a buffer over {@code buf} from byte {@code offset} on, in native byte order */
    public static ByteBuffer slice(byte[] buf, int offset) {
        return ByteBuffer.wrap(buf, offset, buf.length - offset).slice().order(NATIVE);
    }

    /** @return a buffer over {@code buf} from char {@code offset} on */
    public static CharBuffer slice(char[] buf, int offset) {
        return CharBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /** @return a buffer over {@code buf} from short {@code offset} on */
    public static ShortBuffer slice(short[] buf, int offset) {
        return ShortBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /** @return a buffer over {@code buf} from int {@code offset} on */
    public static IntBuffer slice(int[] buf, int offset) {
        return IntBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /** @return a buffer over {@code buf} from long {@code offset} on */
    public static LongBuffer slice(long[] buf, int offset) {
        return LongBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /** @return a buffer over {@code buf} from float {@code offset} on */
    public static FloatBuffer slice(float[] buf, int offset) {
        return FloatBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /** @return a buffer over {@code buf} from double {@code offset} on */
    public static DoubleBuffer slice(double[] buf, int offset) {
        return DoubleBuffer.wrap(buf, offset, buf.length - offset).slice();
    }
}
