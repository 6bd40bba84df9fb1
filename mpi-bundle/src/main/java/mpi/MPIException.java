package mpi;

/**
 * Signals that an MPI error of some sort has occurred. The message is {@code MPI_Error_string}:
 * what was wrong and what to do about it.
 */
public final class MPIException extends Exception {

    private static final long serialVersionUID = 1L;

    private final int errorCode;
    private final int errorClass;

    /**
     * @param code the MPI error code
     * @param clazz the MPI error class
     * @param message what was wrong
     */
    protected MPIException(int code, int clazz, String message) {
        super(message);
        errorCode = code;
        errorClass = clazz;
    }

    /**
     * Creates an exception of error class 0.
     *
     * @param message what was wrong
     */
    public MPIException(String message) {
        this(0, 0, message);
    }

    /**
     * Creates an exception of error class 0 from another failure.
     *
     * @param cause the failure
     */
    public MPIException(Throwable cause) {
        super(cause);
        errorCode = 0;
        errorClass = 0;
        setStackTrace(cause.getStackTrace());
    }

    /** @return the MPI error code */
    public int getErrorCode() {
        return errorCode;
    }

    /** @return the MPI error class, one of the {@code MPI.ERR_*} constants */
    public int getErrorClass() {
        return errorClass;
    }
}
