package io.polylink.mpi.internal.op;

/**
 * One predefined operation on one kind of array: {@code inout[i] = in[i + shift] op inout[i]} for
 * {@code from <= i < to}.
 */
@FunctionalInterface
interface Kernel {

    /**
     * @param shift where {@code in}'s values are relative to {@code inout}'s: 0 for operands of one
     *     layout, another for a chunk of arrived values staged from its own start
     * @param from the first array index of {@code inout}; a pair's first primitive, or the first
     *     record of a byte array of pairs
     */
    void apply(Object in, int shift, Object inout, int from, int to);
}
