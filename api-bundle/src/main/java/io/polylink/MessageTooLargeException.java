package io.polylink;

/** A message would exceed the context's maximum message size. */
public class MessageTooLargeException extends PolylinkException {
    private static final long serialVersionUID = 1L;

    /** @param message what was wrong and what to do about it */
    public MessageTooLargeException(String message) {
        super(message);
    }

    /**
     * @param message what was wrong and what to do about it
     * @param cause the underlying failure
     */
    public MessageTooLargeException(String message, Throwable cause) {
        super(message, cause);
    }
}
