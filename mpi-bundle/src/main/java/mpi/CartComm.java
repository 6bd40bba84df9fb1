package mpi;

import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.comm.Cartesian;
import io.polylink.mpi.internal.comm.Communicator;
import io.polylink.mpi.internal.comm.Derive;

/** A communicator with a Cartesian topology, made by {@link Intracomm#createCart}. */
public final class CartComm extends Intracomm {

    CartComm(Communicator communicator) {
        super(communicator);
    }

    /** Same as {@link #dup}, for {@link Cloneable}; an error becomes a {@link RuntimeException}. */
    @Override
    public CartComm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e.getMessage(), e);
        }
    }

    /** @return a new communicator of the same ranks and topology ({@code MPI_COMM_DUP}); collective */
    @Override
    public CartComm dup() throws MPIException {
        return new CartComm(duplicate());
    }

    /** {@code MPI_COMM_IDUP}: not implemented by this bundle; throws {@link MPIException} naming it. */
    @Override
    public CartComm iDup() throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Comm_idup");
    }

    /** @return a duplicate carrying the hints of {@code info} ({@code MPI_COMM_DUP_WITH_INFO}); collective */
    @Override
    public CartComm dupWithInfo(Info info) throws MPIException {
        return new CartComm(duplicateWithInfo(info));
    }

    private Cartesian grid() throws MPIException {
        Communicator c = comm();
        try {
            return c.requireCartesian();
        } catch (MpiError e) {
            throw Errors.raise(c, e);
        }
    }

    /** @return the grid's dimensions and periods, and this rank's coordinates ({@code MPI_CART_GET}) */
    public CartParms getTopo() throws MPIException {
        Cartesian g = grid();
        return new CartParms(g.dims(), g.periods(), g.coords(comm().rank()));
    }

    /** @return the rank at {@code coords}; periodic dimensions wrap ({@code MPI_CART_RANK}) */
    public int getRank(int[] coords) throws MPIException {
        Cartesian g = grid();
        try {
            return g.rank(coords);
        } catch (MpiError e) {
            throw Errors.raise(comm(), e);
        }
    }

    /** @return the coordinates of {@code rank} ({@code MPI_CART_COORDS}) */
    public int[] getCoords(int rank) throws MPIException {
        Cartesian g = grid();
        try {
            return g.coords(rank);
        } catch (MpiError e) {
            throw Errors.raise(comm(), e);
        }
    }

    /**
     * @return the ranks to receive from and send to for a shift of {@code disp} along
     *     {@code direction}; {@link MPI#PROC_NULL} past a non-periodic edge ({@code MPI_CART_SHIFT})
     */
    public ShiftParms shift(int direction, int disp) throws MPIException {
        Cartesian g = grid();
        try {
            int[] ranks = g.shift(comm().rank(), direction, disp);
            return new ShiftParms(ranks[0], ranks[1]);
        } catch (MpiError e) {
            throw Errors.raise(comm(), e);
        }
    }

    /**
     * @return the sub-grid through this rank of the dimensions {@code remainDims} keeps
     *     ({@code MPI_CART_SUB}); collective
     */
    public CartComm sub(boolean[] remainDims) throws MPIException {
        Communicator c = comm();
        try {
            return new CartComm(Derive.cartSub(c, remainDims));
        } catch (MpiError e) {
            throw Errors.raise(c, e);
        }
    }

    /**
     * @return this rank's rank on a grid of {@code dims}, without reordering, or
     *     {@link MPI#UNDEFINED} if it is beyond it ({@code MPI_CART_MAP})
     */
    public int map(int[] dims, boolean[] periods) throws MPIException {
        Communicator c = comm();
        try {
            Cartesian g = new Cartesian(dims, periods);
            return c.rank() < g.size() ? c.rank() : MPI.UNDEFINED;
        } catch (MpiError e) {
            throw Errors.raise(c, e);
        }
    }

    /**
     * Fills the zero entries of {@code dims} with a balanced factorization of {@code nnodes}, largest
     * first ({@code MPI_DIMS_CREATE}).
     */
    public static void createDims(int nnodes, int[] dims) throws MPIException {
        MPI.check();
        try {
            Cartesian.fillDims(nnodes, dims);
        } catch (MpiError e) {
            throw Errors.raise(e);
        }
    }
}
