package io.polylink.mpi.internal.op;

import io.polylink.mpi.internal.datatype.Region;

/**
 * A partial result of a reduction, in memory of its own: the array a {@link Reduction} combines
 * in, and the region messages move it in and out of.
 */
public final class Operand {

    private final Object data;
    private final Region region;
    private final int unit;

    /**
     * @param data the array or buffer the reduction's kernels work on
     * @param region all of it, as copies of a typemap
     * @param unit copies of the region's typemap per element of the datatype
     */
    Operand(Object data, Region region, int unit) {
        this.data = data;
        this.region = region;
        this.unit = unit;
    }

    Object data() {
        return data;
    }

    int unit() {
        return unit;
    }

    /** @return all of it */
    public Region region() {
        return region;
    }

    /** @return the datatype's elements {@code first} to {@code first + n - 1} of it */
    public Region slice(long first, long n) {
        return region.slice(first * unit, n * unit);
    }
}
