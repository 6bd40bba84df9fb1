package mpi;

import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.coll.Scan;
import io.polylink.mpi.internal.comm.Communicator;
import io.polylink.mpi.internal.comm.Derive;
import java.nio.Buffer;

/**
 * An intra-communicator: {@link MPI#COMM_WORLD}, {@link MPI#COMM_SELF} and every communicator
 * made from them. Adds the constructors of new communicators and topologies to {@link Comm}.
 */
public class Intracomm extends Comm {

    Intracomm(Communicator communicator) {
        super(communicator);
    }

    /** Same as {@link #dup}, for {@link Cloneable}; an error becomes a {@link RuntimeException}. */
    @Override
    public Intracomm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e.getMessage(), e);
        }
    }

    /** @return a new communicator of the same ranks ({@code MPI_COMM_DUP}); collective */
    @Override
    public Intracomm dup() throws MPIException {
        return new Intracomm(duplicate());
    }

    /** {@code MPI_COMM_IDUP}: not implemented by this bundle; throws {@link MPIException} naming it. */
    @Override
    public Intracomm iDup() throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Comm_idup");
    }

    /** @return a duplicate carrying the hints of {@code info} ({@code MPI_COMM_DUP_WITH_INFO}); collective */
    @Override
    public Intracomm dupWithInfo(Info info) throws MPIException {
        return new Intracomm(duplicateWithInfo(info));
    }

    /**
     * Splits the communicator ({@code MPI_COMM_SPLIT}); collective. Ranks of one colour form one new
     * communicator, ordered by key, ties broken by rank here.
     *
     * @param colour a non-negative colour, or {@link MPI#UNDEFINED} to join none
     * @return this rank's new communicator; {@code MPI_COMM_NULL} ({@link #isNull}) for {@link MPI#UNDEFINED}
     */
    public final Intracomm split(int colour, int key) throws MPIException {
        Communicator c = comm();
        try {
            return new Intracomm(Derive.split(c, colour, key));
        } catch (MpiError e) {
            throw Errors.raise(c, e);
        }
    }

    /**
     * Makes a communicator of {@code group}'s ranks ({@code MPI_COMM_CREATE}); collective over this
     * communicator, every rank passing the same group.
     *
     * @return the new communicator; {@code MPI_COMM_NULL} at ranks outside the group
     */
    public final Intracomm create(Group group) throws MPIException {
        Communicator c = comm();
        try {
            return new Intracomm(Derive.create(c, group.members()));
        } catch (MpiError e) {
            throw Errors.raise(c, e);
        }
    }

    /**
     * Makes a communicator of {@code group}'s ranks ({@code MPI_COMM_CREATE_GROUP}); collective over
     * the group's ranks only.
     *
     * @param tag tells apart creations running at once over overlapping groups
     */
    public final Intracomm createGroup(Group group, int tag) throws MPIException {
        Communicator c = comm();
        try {
            return new Intracomm(Derive.createGroup(c, group.members(), tag));
        } catch (MpiError e) {
            throw Errors.raise(c, e);
        }
    }

    /**
     * Makes a Cartesian communicator ({@code MPI_CART_CREATE}); collective. Ranks are not
     * reordered: the first ones fill the grid in row-major order.
     *
     * @param dims ranks along each dimension; their product at most this communicator's size
     * @param periods whether each dimension wraps around
     * @param reorder ignored
     * @return the Cartesian communicator; {@code MPI_COMM_NULL} at ranks beyond the grid
     */
    public final CartComm createCart(int[] dims, boolean[] periods, boolean reorder) throws MPIException {
        Communicator c = comm();
        try {
            return new CartComm(Derive.cart(c, dims, periods));
        } catch (MpiError e) {
            throw Errors.raise(c, e);
        }
    }

    /** {@code MPI_Comm_split_type}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Intracomm splitType(int splitType, int key, Info info) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Comm_split_type");
    }

    /** {@code MPI_Graph_create}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final GraphComm createGraph(int[] index, int[] edges, boolean reorder) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Graph_create");
    }

    /** {@code MPI_Dist_graph_create}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final GraphComm createDistGraph(int[] sources, int[] degrees, int[] destinations, int[] weights,
            Info info, boolean reorder) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Dist_graph_create");
    }

    /** {@code MPI_Dist_graph_create}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final GraphComm createDistGraph(int[] sources, int[] degrees, int[] destinations, Info info,
            boolean reorder) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Dist_graph_create");
    }

    /** {@code MPI_Dist_graph_create_adjacent}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final GraphComm createDistGraphAdjacent(int[] sources, int[] sourceWeights, int[] destinations,
            int[] destWeights, Info info, boolean reorder) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Dist_graph_create_adjacent");
    }

    /** {@code MPI_Dist_graph_create_adjacent}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final GraphComm createDistGraphAdjacent(int[] sources, int[] destinations, Info info, boolean reorder)
           throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Dist_graph_create_adjacent");
    }

    /**
     * Reduces the data of ranks 0 to this one with {@code op} into {@code recvbuf}, in rank order
     * ({@code MPI_SCAN}).
     */
    public final void scan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        run(c -> Scan.scan(c, sendbuf, recvbuf, count, Datatype.use(type), Op.of(op, type), false, false));
    }

    /** {@code MPI_SCAN} with {@code MPI_IN_PLACE}: {@code recvbuf} holds this rank's data and receives the result. */
    public final void scan(Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        run(c -> Scan.scan(c, null, recvbuf, count, Datatype.use(type), Op.of(op, type), true, false));
    }

    /** Starts {@code MPI_ISCAN}. @param sendbuf a direct buffer @param recvbuf a direct buffer */
    public final Request iScan(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op) throws MPIException {
        MPI.assertDirectBuffer(sendbuf, recvbuf);
        return start(c -> Scan.scan(c, sendbuf, recvbuf, count, Datatype.use(type), Op.of(op, type), false, false));
    }

    /** Starts {@code MPI_ISCAN} with {@code MPI_IN_PLACE}. @param buf a direct buffer */
    public final Request iScan(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        MPI.assertDirectBuffer(buf);
        return start(c -> Scan.scan(c, null, buf, count, Datatype.use(type), Op.of(op, type), true, false));
    }

    /**
     * Reduces the data of ranks 0 to the one before this with {@code op} into {@code recvbuf}, in
     * rank order; at rank 0 {@code recvbuf} is left as it is ({@code MPI_EXSCAN}).
     */
    public final void exScan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        run(c -> Scan.scan(c, sendbuf, recvbuf, count, Datatype.use(type), Op.of(op, type), false, true));
    }

    /** {@code MPI_EXSCAN} with {@code MPI_IN_PLACE}: {@code buf} holds this rank's data and receives the result. */
    public final void exScan(Object buf, int count, Datatype type, Op op) throws MPIException {
        run(c -> Scan.scan(c, null, buf, count, Datatype.use(type), Op.of(op, type), true, true));
    }

    /** Starts {@code MPI_IEXSCAN}. @param sendbuf a direct buffer @param recvbuf a direct buffer */
    public final Request iExScan(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op) throws MPIException {
        MPI.assertDirectBuffer(sendbuf, recvbuf);
        return start(c -> Scan.scan(c, sendbuf, recvbuf, count, Datatype.use(type), Op.of(op, type), false, true));
    }

    /** Starts {@code MPI_IEXSCAN} with {@code MPI_IN_PLACE}. @param buf a direct buffer */
    public final Request iExScan(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        MPI.assertDirectBuffer(buf);
        return start(c -> Scan.scan(c, null, buf, count, Datatype.use(type), Op.of(op, type), true, true));
    }

    /** {@code MPI_Open_port}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public static String openPort() throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Open_port");
    }

    /** {@code MPI_Open_port}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public static String openPort(Info info) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Open_port");
    }

    /** {@code MPI_Close_port}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public static void closePort(String name) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Close_port");
    }

    /** {@code MPI_Comm_accept}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Intercomm accept(String port, int root) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Comm_accept");
    }

    /** {@code MPI_Comm_accept}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Intercomm accept(String port, Info info, int root) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Comm_accept");
    }

    /** {@code MPI_Comm_connect}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Intercomm connect(String port, int root) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Comm_connect");
    }

    /** {@code MPI_Comm_connect}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Intercomm connect(String port, Info info, int root) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Comm_connect");
    }

    /** {@code MPI_Publish_name}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public static void publishName(String service, String port) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Publish_name");
    }

    /** {@code MPI_Publish_name}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public static void publishName(String service, Info info, String port) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Publish_name");
    }

    /** {@code MPI_Unpublish_name}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public static void unpublishName(String service, String port) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Unpublish_name");
    }

    /** {@code MPI_Unpublish_name}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public static void unpublishName(String service, Info info, String port) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Unpublish_name");
    }

    /** {@code MPI_Lookup_name}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public static String lookupName(String service) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Lookup_name");
    }

    /** {@code MPI_Lookup_name}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public static String lookupName(String service, Info info) throws MPIException {
        MPI.check();
        throw Errors.notImplemented("MPI_Lookup_name");
    }

    /** {@code MPI_Comm_spawn}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Intercomm spawn(String command, String[] argv, int maxprocs, Info info, int root, int[] errcodes)
           throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Comm_spawn");
    }

    /** {@code MPI_Comm_spawn_multiple}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public final Intercomm spawnMultiple(String[] commands, String[][] argv, int[] maxprocs, Info[] info, int root,
            int[] errcodes) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Comm_spawn_multiple");
    }
}
