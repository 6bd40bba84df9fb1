package io.polylink.method.shm.internal.segment;

import io.polylink.LinkException;

/** A segment file is missing, unreadable, foreign, truncated or corrupt; the message says which. */
public final class SegmentException extends LinkException {
    private static final long serialVersionUID = 1L;

    public SegmentException(String message) {
        super(message);
    }
}
