package io.polylink.mpi.internal.p2p;

/** Where the engine's control messages go: the rank's start and end, in package {@code boot}. */
public interface ControlListener {

    /** Rank {@code worldRank} sent FIN or BYE ({@code kind}, a {@link io.polylink.mpi.internal.wire.Header} kind). */
    void farewell(int kind, int worldRank);

    /** Rank {@code worldRank} aborted the job with {@code code}. */
    void aborted(int worldRank, int code);
}
