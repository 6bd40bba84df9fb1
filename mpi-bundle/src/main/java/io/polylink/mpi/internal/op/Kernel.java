package io.polylink.mpi.internal.op;

/** One predefined operation on one kind of array: {@code inout[i] = in[i] op inout[i]} for {@code from <= i < to}. */
@FunctionalInterface
interface Kernel {

    /** @param from the first array index; a pair's first primitive, or the first record of a byte array of pairs */
    void apply(Object in, Object inout, int from, int to);
}
