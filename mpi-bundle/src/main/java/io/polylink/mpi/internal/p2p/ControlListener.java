package io.polylink.mpi.internal.p2p;

import io.polylink.mpi.internal.MpiError;

/** Where the engine's control messages go: the rank's start and end, in package {@code boot}. */
public interface ControlListener {

    /** Rank {@code worldRank} sent FIN or BYE ({@code kind}, a {@link io.polylink.mpi.internal.wire.Header} kind). */
    void farewell(int kind, int worldRank);

    /** Rank {@code worldRank} aborted the job with {@code code}. */
    void aborted(int worldRank, int code);

    /**
     * Rank {@code worldRank} is lost: its process ended, or its link failed. The operations that
     * waited on it have failed with {@code error} already.
     */
    void lost(int worldRank, MpiError error);
}
