package mpi;

/** An MPI object whose resources {@link #free} releases. */
public interface Freeable {

    /**
     * Releases the object.
     *
     * @throws MPIException if it cannot be freed
     */
    void free() throws MPIException;
}
