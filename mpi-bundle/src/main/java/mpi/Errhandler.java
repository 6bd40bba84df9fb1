package mpi;

import io.polylink.mpi.internal.comm.ErrorMode;

/**
 * An error handler: {@link MPI#ERRORS_ARE_FATAL} (the default: an error ends the job),
 * {@link MPI#ERRORS_ABORT} (the same in this bundle), or {@link MPI#ERRORS_RETURN} (the call
 * throws {@link MPIException}).
 */
public final class Errhandler {

    final ErrorMode mode;

    Errhandler(ErrorMode mode) {
        this.mode = mode;
    }

    static Errhandler of(ErrorMode mode) {
        return switch (mode) {
            case FATAL -> MPI.ERRORS_ARE_FATAL;
            case ABORT -> MPI.ERRORS_ABORT;
            case RETURN -> MPI.ERRORS_RETURN;
        };
    }
}
