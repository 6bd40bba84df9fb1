package mpi;

/**
 * A distributed graph's neighbours ({@link GraphComm#getDistGraphNeighbors}); distributed graphs
 * are not implemented by this bundle.
 */
public final class DistGraphNeighbors {

    private final int[] sources;
    private final int[] sourceWeights;
    private final int[] destinations;
    private final int[] destWeights;
    private final boolean weighted;

    /**
     * @param sources ranks this one receives from
     * @param sourceWeights their weights
     * @param destinations ranks this one sends to
     * @param destWeights their weights
     * @param weighted whether the graph has weights
     */
    protected DistGraphNeighbors(int[] sources, int[] sourceWeights, int[] destinations, int[] destWeights,
                                 boolean weighted) {
        this.sources = sources;
        this.sourceWeights = sourceWeights;
        this.destinations = destinations;
        this.destWeights = destWeights;
        this.weighted = weighted;
    }

    /** @return the number of sources */
    public int getInDegree() {
        return sources.length;
    }

    /** @return the number of destinations */
    public int getOutDegree() {
        return destinations.length;
    }

    /** @return whether the graph has weights */
    public boolean isWeighted() {
        return weighted;
    }

    /** @param i a source's index @return its rank */
    public int getSource(int i) {
        return sources[i];
    }

    /** @param i a source's index @return its weight */
    public int getSourceWeight(int i) {
        return sourceWeights[i];
    }

    /** @param i a destination's index @return its rank */
    public int getDestination(int i) {
        return destinations[i];
    }

    /** @param i a destination's index @return its weight */
    public int getDestinationWeight(int i) {
        return destWeights[i];
    }
}
