package mpi;

/** The version of the MPI standard the library follows ({@code MPI_GET_VERSION}). */
public final class Version {

    private final int version;
    private final int subVersion;

    /**
     * @param version the major version
     * @param subVersion the minor version
     */
    protected Version(int version, int subVersion) {
        this.version = version;
        this.subVersion = subVersion;
    }

    /** @return the major version */
    public int getVersion() {
        return version;
    }

    /** @return the minor version */
    public int getSubVersion() {
        return subVersion;
    }
}
