package mpi;

/** A graph topology ({@link GraphComm#getDims}); graph topologies are not implemented by this bundle. */
public final class GraphParms {

    private final int[] index;
    private final int[] edges;

    /**
     * @param index the cumulative degree of each node
     * @param edges the neighbours, node by node
     */
    protected GraphParms(int[] index, int[] edges) {
        this.index = index;
        this.edges = edges;
    }

    /** @return the number of nodes */
    public int getIndexCount() {
        return index.length;
    }

    /** @param i a node @return its cumulative degree */
    public int getIndex(int i) {
        return index[i];
    }

    /** @return the number of edges */
    public int getEdgeCount() {
        return edges.length;
    }

    /** @param i an edge @return its neighbour */
    public int getEdge(int i) {
        return edges[i];
    }
}
