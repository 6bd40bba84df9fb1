package mpi;

/** A 64-bit count ({@code MPI_Count}). */
@SuppressWarnings("rawtypes")
public final class Count implements Comparable {

    private long count;

    /** @param count the count */
    public Count(long count) {
        this.count = count;
    }

    /** @return the count */
    public long getCount() {
        return count;
    }

    /** @param count the new count */
    public void setCount(long count) {
        this.count = count;
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof Count c && c.count == count;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(count);
    }

    @Override
    public int compareTo(Object obj) {
        return Long.compare(count, ((Count) obj).count);
    }

    @Override
    public String toString() {
        return Long.toString(count);
    }
}
