package io.polylink;

/** A link could not carry an RSR: its connection failed, or stayed full beyond the send timeout. */
public class LinkException extends PolylinkException {
    private static final long serialVersionUID = 1L;

    /** @param message what was wrong and what to do about it */
    public LinkException(String message) {
        super(message);
    }

    /**
     * @param message what was wrong and what to do about it
     * @param cause the underlying failure
     */
    public LinkException(String message, Throwable cause) {
        super(message, cause);
    }
}
