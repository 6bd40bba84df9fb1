package io.polylink.mpi.internal.comm;

/** What a communicator does with an MPI error: its error handler. */
public enum ErrorMode {
    /** {@code MPI.ERRORS_ARE_FATAL}: ends the whole job. */
    FATAL,
    /** {@code MPI.ERRORS_ABORT}: ends the job (this bundle aborts every rank, as for FATAL). */
    ABORT,
    /** {@code MPI.ERRORS_RETURN}: the call throws {@code MPIException}. */
    RETURN
}
