package mpi;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.boot.Session;
import io.polylink.mpi.internal.comm.Communicator;
import io.polylink.mpi.internal.comm.ErrorMode;

/**
 * Turns the engine's errors into {@link MPIException}s through the communicator's error handler:
 * with {@link MPI#ERRORS_RETURN} the call throws; with {@link MPI#ERRORS_ARE_FATAL} or
 * {@link MPI#ERRORS_ABORT} the job is aborted with the error class as its exit code, and the call
 * throws only if the rank's host let it go on. Errors of calls on no communicator go to
 * {@code COMM_WORLD}'s handler.
 */
final class Errors {

    private Errors() {}

    /** @return the exception for {@code e} under {@code comm}'s error handler */
    static MPIException raise(Communicator comm, MpiError e) {
        Session session = MPI.current();
        if (session != null && comm != null && comm.errors() != ErrorMode.RETURN) {
            if (session.abort() == null) {
                session.abort(e.errorClass(), e.getMessage() + " (MPI error class " + e.errorClass() + " on "
                    + comm.describe() + ", whose error handler is "
                    + (comm.errors() == ErrorMode.FATAL ? "MPI.ERRORS_ARE_FATAL" : "MPI.ERRORS_ABORT") + ")");
            } else {
                session.followAbort();
            }
        }
        return exception(e);
    }

    /** @return the exception for {@code e} under {@code COMM_WORLD}'s error handler */
    static MPIException raise(MpiError e) {
        Session session = MPI.current();
        return raise(session == null ? null : session.commWorld(), e);
    }

    /** @return the exception for {@code e}, thrown as it is */
    static MPIException exception(MpiError e) {
        MPIException x = new MPIException(e.errorClass(), e.errorClass(), e.getMessage());
        x.initCause(e);
        return x;
    }

    /** @return the exception for a call this bundle does not implement, thrown as it is */
    static MPIException notImplemented(String call) {
        return exception(MpiError.unsupported(call));
    }

    /** @return an {@code ERR_ARG} error */
    static MpiError argument(String message) {
        return new MpiError(ErrorClass.ERR_ARG, message);
    }
}
