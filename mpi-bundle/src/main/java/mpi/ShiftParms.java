package mpi;

/** The source and destination of a Cartesian shift, as {@link CartComm#shift} returns them. */
public final class ShiftParms {

    private final int rankSource;
    private final int rankDest;

    /**
     * @param rankSource the rank to receive from
     * @param rankDest the rank to send to
     */
    protected ShiftParms(int rankSource, int rankDest) {
        this.rankSource = rankSource;
        this.rankDest = rankDest;
    }

    /** @return the rank to receive from, or {@code MPI.PROC_NULL} past a non-periodic edge */
    public int getRankSource() {
        return rankSource;
    }

    /** @return the rank to send to, or {@code MPI.PROC_NULL} past a non-periodic edge */
    public int getRankDest() {
        return rankDest;
    }
}
