package io.polylink.mpi.internal.comm;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import java.util.HashSet;
import java.util.Set;

/**
 * Attribute keys made by {@code createKeyval}, for communicators and datatypes alike. Keys below
 * {@link #FIRST} are the predefined ones ({@code MPI.TAG_UB} and its kin). Thread-safe.
 */
public final class Keyvals {

    /** The first key {@code createKeyval} returns; below are Open MPI's predefined keys. */
    public static final int FIRST = 16;
    /** {@code MPI.KEYVAL_INVALID}. */
    public static final int INVALID = -1;

    private final Set<Integer> live = new HashSet<>();
    private int next = FIRST;

    public synchronized int create() {
        int k = next++;
        live.add(k);
        return k;
    }

    /** @throws MpiError {@code ERR_KEYVAL} if {@code keyval} is predefined or not live */
    public synchronized void free(int keyval) {
        if (!live.remove(keyval)) {
            throw new MpiError(ErrorClass.ERR_KEYVAL, "keyval " + keyval + " was not made by createKeyval or was freed");
        }
    }

    /** @throws MpiError {@code ERR_KEYVAL} if {@code keyval} is not live */
    public synchronized void check(int keyval) {
        if (!live.contains(keyval)) {
            throw new MpiError(ErrorClass.ERR_KEYVAL, "keyval " + keyval + " was not made by createKeyval or was freed");
        }
    }
}
