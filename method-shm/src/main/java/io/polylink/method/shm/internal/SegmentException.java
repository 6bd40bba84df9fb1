package io.polylink.method.shm.internal;

import io.polylink.LinkException;

/** A segment file is missing, unreadable, foreign, truncated or corrupt; the message says which. */
final class SegmentException extends LinkException {
    private static final long serialVersionUID = 1L;

    SegmentException(String message) {
        super(message);
    }
}
