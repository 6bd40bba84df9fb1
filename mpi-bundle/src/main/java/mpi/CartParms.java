package mpi;

/** A Cartesian communicator's topology, as {@link CartComm#getTopo} returns it. */
public final class CartParms {

    private final int[] dims;
    private final boolean[] periods;
    private final int[] coords;

    /**
     * @param dims the number of ranks along each dimension
     * @param periods whether each dimension wraps around
     * @param coords the calling rank's coordinates
     */
    protected CartParms(int[] dims, boolean[] periods, int[] coords) {
        this.dims = dims;
        this.periods = periods;
        this.coords = coords;
    }

    /** @return the number of dimensions */
    public int getDimCount() {
        return dims.length;
    }

    /** @param i a dimension @return the number of ranks along it */
    public int getDim(int i) {
        return dims[i];
    }

    /** @param i a dimension @return whether it wraps around */
    public boolean getPeriod(int i) {
        return periods[i];
    }

    /** @param i a dimension @return the calling rank's coordinate along it */
    public int getCoord(int i) {
        return coords[i];
    }
}
