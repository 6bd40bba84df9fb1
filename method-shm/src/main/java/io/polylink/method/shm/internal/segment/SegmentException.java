package io.polylink.method.shm.internal.segment;

import io.polylink.LinkException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

/** A segment file is missing, unreadable, foreign, truncated or corrupt; the message says which. */
public final class SegmentException extends LinkException {
    private static final long serialVersionUID = 1L;

    public SegmentException(String message) {
        super(message);
    }

    /** @return what went wrong with a file operation, in words; the caller names the file */
    public static String why(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return e.getMessage() != null ? e.getMessage() : e.toString();
    }
}
