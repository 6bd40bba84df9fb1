package io.polylink;

/** The root of all errors Polylink reports. */
public class PolylinkException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message what was wrong and what to do about it */
    public PolylinkException(String message) {
        super(message);
    }

    /**
     * @param message what was wrong and what to do about it
     * @param cause the underlying failure
     */
    public PolylinkException(String message, Throwable cause) {
        super(message, cause);
    }
}
