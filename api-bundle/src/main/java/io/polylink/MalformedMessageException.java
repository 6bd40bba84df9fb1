package io.polylink;

/** Bytes from outside (a frame, a message, a startpoint, a descriptor table) are not what they claim to be. */
public class MalformedMessageException extends PolylinkException {
    private static final long serialVersionUID = 1L;

    /** @param message what was wrong and what to do about it */
    public MalformedMessageException(String message) {
        super(message);
    }

    /**
     * @param message what was wrong and what to do about it
     * @param cause the underlying failure
     */
    public MalformedMessageException(String message, Throwable cause) {
        super(message, cause);
    }
}
