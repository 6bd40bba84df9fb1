package mpi;

import io.polylink.mpi.internal.comm.Communicator;

/**
 * An inter-communicator. Inter-communicators are not implemented by this bundle: no
 * {@code Intercomm} is ever made, and its methods throw {@link MPIException} naming their call.
 */
public final class Intercomm extends Comm {

    Intercomm(Communicator communicator) {
        super(communicator);
    }

    /** Same as {@link #dup}, for {@link Cloneable}; an error becomes a {@link RuntimeException}. */
    @Override
    public Intercomm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e.getMessage(), e);
        }
    }

    /** {@code MPI_Comm_dup} of an inter-communicator: not implemented by this bundle. */
    @Override
    public Intercomm dup() throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Comm_dup of an inter-communicator");
    }

    /** {@code MPI_Comm_idup}: not implemented by this bundle. */
    @Override
    public Intercomm iDup() throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Comm_idup");
    }

    /** {@code MPI_Comm_dup_with_info} of an inter-communicator: not implemented by this bundle. */
    @Override
    public Intercomm dupWithInfo(Info info) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Comm_dup_with_info of an inter-communicator");
    }

    /** {@code MPI_Comm_remote_size}: not implemented by this bundle. */
    public int getRemoteSize() throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Comm_remote_size");
    }

    /** {@code MPI_Comm_remote_group}: not implemented by this bundle. */
    public Group getRemoteGroup() throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Comm_remote_group");
    }

    /** {@code MPI_Intercomm_merge}: not implemented by this bundle. */
    public Intracomm merge(boolean high) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Intercomm_merge");
    }

    /**
     * @return {@code MPI_COMM_NULL} ({@link #isNull}): no rank of this bundle was spawned by another
     *     ({@code MPI_COMM_GET_PARENT})
     */
    public static Intercomm getParent() throws MPIException {
        MPI.check();
        return new Intercomm(null);
    }
}
