package io.polylink.mpi.programs.coll;

import java.util.Arrays;

/** The data ranks exchange: element {@code i} of rank {@code r}'s data in call {@code salt}. */
final class Data {

    private Data() {}

    static int value(int rank, int salt, int i) {
        return Math.floorMod((rank + 1) * 1_000_003 + salt * 7919 + i * 31, 10_007) - 5_000;
    }

    /** @return elements {@code from} to {@code from + count - 1} of rank {@code rank}'s data */
    static int[] of(int rank, int salt, int from, int count) {
        int[] out = new int[count];
        for (int i = 0; i < count; i++) {
            out[i] = value(rank, salt, from + i);
        }
        return out;
    }

    static int[] of(int rank, int salt, int count) {
        return of(rank, salt, 0, count);
    }

    /** @return the element-wise sums of elements {@code from} to {@code from + count - 1} of ranks 0 to {@code ranks - 1} */
    static int[] sum(int ranks, int salt, int from, int count) {
        int[] out = new int[count];
        for (int r = 0; r < ranks; r++) {
            int[] v = of(r, salt, from, count);
            for (int i = 0; i < count; i++) {
                out[i] += v[i];
            }
        }
        return out;
    }

    static int[] filled(int count, int value) {
        int[] out = new int[count];
        Arrays.fill(out, value);
        return out;
    }

    /** @return {@code part} at {@code at} in {@code into} */
    static void put(int[] into, int at, int[] part) {
        System.arraycopy(part, 0, into, at, part.length);
    }

    static int[] slice(int[] from, int at, int count) {
        return Arrays.copyOfRange(from, at, at + count);
    }
}
