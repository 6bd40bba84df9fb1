package mpi;

import io.polylink.mpi.internal.comm.Communicator;

/**
 * A communicator with a graph topology. Graph topologies are not implemented by this bundle: no
 * {@code GraphComm} is ever made, and its methods throw {@link MPIException} naming their call.
 */
public final class GraphComm extends Intracomm {

    GraphComm(Communicator communicator) {
        super(communicator);
    }

    /** Same as {@link #dup}, for {@link Cloneable}; an error becomes a {@link RuntimeException}. */
    @Override
    public GraphComm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e.getMessage(), e);
        }
    }

    /** @return a new communicator of the same ranks and topology ({@code MPI_COMM_DUP}); collective */
    @Override
    public GraphComm dup() throws MPIException {
        return new GraphComm(duplicate());
    }

    /** {@code MPI_COMM_IDUP}: not implemented by this bundle; throws {@link MPIException} naming it. */
    @Override
    public GraphComm iDup() throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Comm_idup");
    }

    /** @return a duplicate carrying the hints of {@code info} ({@code MPI_COMM_DUP_WITH_INFO}); collective */
    @Override
    public GraphComm dupWithInfo(Info info) throws MPIException {
        return new GraphComm(duplicateWithInfo(info));
    }

    /** {@code MPI_Graph_get}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public GraphParms getDims() throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Graph_get");
    }

    /** {@code MPI_Graph_neighbors}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public int[] getNeighbors(int rank) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Graph_neighbors");
    }

    /** {@code MPI_Dist_graph_neighbors}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public DistGraphNeighbors getDistGraphNeighbors() throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Dist_graph_neighbors");
    }

    /** {@code MPI_Graph_map}: not implemented by this bundle; throws {@link MPIException} naming it. */
    public int map(int[] index, int[] edges) throws MPIException {
        comm();
        throw Errors.notImplemented("MPI_Graph_map");
    }
}
