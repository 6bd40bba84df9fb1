package io.polylink.mpi.internal;

/**
 * An MPI error found by the engine: its error class and a message that says what was wrong and
 * what to do. The public classes hand it to the communicator's error handler, which turns it into
 * an {@code MPIException} or ends the job.
 */
public final class MpiError extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int errorClass;

    /**
     * @param errorClass one of {@link ErrorClass}'s values
     * @param message what was wrong and what to do about it
     */
    public MpiError(int errorClass, String message) {
        super(message);
        this.errorClass = errorClass;
    }

    /**
     * @param errorClass one of {@link ErrorClass}'s values
     * @param message what was wrong and what to do about it
     * @param cause the failure underneath
     */
    public MpiError(int errorClass, String message, Throwable cause) {
        super(message, cause);
        this.errorClass = errorClass;
    }

    /** @return the MPI error class, which is also its error code */
    public int errorClass() {
        return errorClass;
    }

    /** @return an error for an API call this bundle does not implement */
    public static MpiError unsupported(String call) {
        return new MpiError(ErrorClass.ERR_UNSUPPORTED_OPERATION,
            call + " is not implemented by Polylink's mpi bundle");
    }
}
