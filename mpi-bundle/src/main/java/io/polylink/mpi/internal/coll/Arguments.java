package io.polylink.mpi.internal.coll;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.datatype.Memories;
import io.polylink.mpi.internal.datatype.Memory;
import io.polylink.mpi.internal.datatype.Region;
import io.polylink.mpi.internal.datatype.Typemap;

/** Checks of collectives' arguments, each failing with the MPI error class and a message naming what is wrong. */
final class Arguments {

    private Arguments() {}

    /**
     * @param buffer the application's buffer
     * @param writable whether the collective writes into it
     * @param what its role, for errors: "the send buffer"
     * @return {@code count} elements of {@code map} in {@code buffer}, checked
     */
    static Region buffer(Object buffer, int count, Typemap map, boolean writable, String what) {
        count(count, what);
        return new Region(Memories.of(buffer, writable), map, count).check(what);
    }

    /** @return the memory of {@code buffer}, whose parts the caller checks */
    static Memory memory(Object buffer, boolean writable) {
        return Memories.of(buffer, writable);
    }

    static void count(long count, String what) {
        if (count < 0) {
            throw new MpiError(ErrorClass.ERR_COUNT, "the count of " + what + ", " + count + ", is negative");
        }
    }

    static void root(int root, int size) {
        if (root < 0 || root >= size) {
            throw new MpiError(ErrorClass.ERR_ROOT, "root " + root + " is not a rank of the communicator's " + size
                + " (0 to " + (size - 1) + ")");
        }
    }

    /**
     * @param counts counts per rank (or neighbour), at least {@code size} of them, none negative
     * @param displs their displacements, at least {@code size} of them, or {@code null} if there are none
     */
    static void counts(int[] counts, int[] displs, int size, String what) {
        if (counts == null || counts.length < size) {
            throw new MpiError(ErrorClass.ERR_COUNT, "the counts of " + what + " must have " + size + " entries, one "
                + "per rank, not " + (counts == null ? "null" : Integer.toString(counts.length)));
        }
        if (displs != null && displs.length < size) {
            throw new MpiError(ErrorClass.ERR_ARG, "the displacements of " + what + " must have " + size + " entries, "
                + "one per rank, not " + displs.length);
        }
        for (int i = 0; i < size; i++) {
            if (counts[i] < 0) {
                throw new MpiError(ErrorClass.ERR_COUNT, "count " + i + " of " + what + ", " + counts[i] + ", is negative");
            }
        }
    }

    /** @return the part of {@code memory} for rank {@code i}: {@code count} elements from {@code first} on, checked */
    static Region part(Memory memory, Typemap map, long first, long count, int i, String what) {
        return bytesIn(memory, map, first * map.extent(), count, i, what);
    }

    /** @return the part of {@code memory} {@code offset} bytes in: {@code count} elements, checked */
    static Region bytesIn(Memory memory, Typemap map, long offset, long count, int i, String what) {
        if (offset < 0 && count > 0) {
            throw new MpiError(ErrorClass.ERR_ARG, "the part of rank " + i + " of " + what + " starts " + offset
                + " bytes before the buffer");
        }
        return new Region(Memories.shifted(memory, offset), map, count).check(what + " (the part of rank " + i + ")");
    }

    static MpiError mismatch(String message) {
        return new MpiError(ErrorClass.ERR_ARG, message);
    }
}
