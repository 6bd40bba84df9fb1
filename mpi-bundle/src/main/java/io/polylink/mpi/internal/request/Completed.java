package io.polylink.mpi.internal.request;

import io.polylink.mpi.internal.MpiError;

/** An operation complete from the start: a send handed over whole, a receive from {@code PROC_NULL}. */
public final class Completed extends Operation {

    /** See {@link Operation#complete}. */
    public Completed(int source, int tag, long bytes, MpiError error) {
        super(source, tag, bytes, error);
    }
}
