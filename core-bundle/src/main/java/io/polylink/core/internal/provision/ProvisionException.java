package io.polylink.core.internal.provision;

/** A bundle could not be provisioned; the message names the bundle, the repository and the reason. */
final class ProvisionException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    ProvisionException(String message) {
        super(message);
    }

    ProvisionException(String message, Throwable cause) {
        super(message, cause);
    }
}
