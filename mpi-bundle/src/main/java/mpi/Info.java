package mpi;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Hints as (key, value) pairs of strings ({@code MPI_Info}). Keys are at most
 * {@link MPI#MAX_INFO_KEY} characters, values at most {@link MPI#MAX_INFO_VAL}. Thread-safe.
 */
public final class Info implements Freeable, Cloneable {

    private final Map<String, String> entries;
    private final boolean predefined;
    private volatile boolean freed;

    /**
     * Creates an empty info object ({@code MPI_INFO_CREATE}).
     *
     * @throws MPIException if MPI is not initialized
     */
    public Info() throws MPIException {
        MPI.check();
        entries = new LinkedHashMap<>();
        predefined = false;
    }

    private Info(Map<String, String> entries, boolean predefined, boolean isNull) {
        this.entries = new LinkedHashMap<>(entries);
        this.predefined = predefined;
        this.freed = isNull;
    }

    static Info predefined(Map<String, String> entries, boolean isNull) {
        return new Info(entries, true, isNull);
    }

    static Info copyOf(Map<String, String> entries) {
        return new Info(entries, false, false);
    }

    /**
     * Sets a key's value ({@code MPI_INFO_SET}).
     *
     * @throws MPIException {@code ERR_INFO_KEY} or {@code ERR_INFO_VALUE} if the key or value is too long or empty
     */
    public void set(String key, String value) throws MPIException {
        MPI.check();
        try {
            live(true);
            checkKey(key);
            if (value == null || value.isEmpty() || value.length() > MPI.MAX_INFO_VAL) {
                throw new MpiError(ErrorClass.ERR_INFO_VALUE, "info value for '" + key + "' must be 1 to "
                    + MPI.MAX_INFO_VAL + " characters");
            }
            synchronized (this) {
                entries.put(key, value);
            }
        } catch (MpiError e) {
            throw Errors.raise(e);
        }
    }

    /**
     * @return the key's value, or {@code null} if it has none ({@code MPI_INFO_GET})
     * @throws MPIException if the key is not valid
     */
    public String get(String key) throws MPIException {
        MPI.check();
        try {
            live(false);
            checkKey(key);
            synchronized (this) {
                return entries.get(key);
            }
        } catch (MpiError e) {
            throw Errors.raise(e);
        }
    }

    /**
     * Removes a key ({@code MPI_INFO_DELETE}).
     *
     * @throws MPIException {@code ERR_INFO_NOKEY} if the key has no value
     */
    public void delete(String key) throws MPIException {
        MPI.check();
        try {
            live(true);
            checkKey(key);
            synchronized (this) {
                if (entries.remove(key) == null) {
                    throw new MpiError(ErrorClass.ERR_INFO_NOKEY, "info has no key '" + key + "' to delete");
                }
            }
        } catch (MpiError e) {
            throw Errors.raise(e);
        }
    }

    /** @return the number of keys ({@code MPI_INFO_GET_NKEYS}) @throws MPIException if it was freed */
    public int size() throws MPIException {
        MPI.check();
        try {
            live(false);
            synchronized (this) {
                return entries.size();
            }
        } catch (MpiError e) {
            throw Errors.raise(e);
        }
    }

    /**
     * @param i 0 to {@code size() - 1}, in the order the keys were set
     * @return the {@code i}th key ({@code MPI_INFO_GET_NTHKEY})
     * @throws MPIException {@code ERR_ARG} if there is no such key
     */
    public String getKey(int i) throws MPIException {
        MPI.check();
        try {
            live(false);
            synchronized (this) {
                if (i < 0 || i >= entries.size()) {
                    throw new MpiError(ErrorClass.ERR_ARG, "info key " + i + " of " + entries.size());
                }
                return new ArrayList<>(entries.keySet()).get(i);
            }
        } catch (MpiError e) {
            throw Errors.raise(e);
        }
    }

    /** Same as {@link #dup}, for {@link Cloneable}; an error becomes a {@link RuntimeException}. */
    @Override
    public Info clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e.getMessage(), e);
        }
    }

    /** @return a copy ({@code MPI_INFO_DUP}) @throws MPIException if it was freed */
    public Info dup() throws MPIException {
        MPI.check();
        try {
            live(false);
            return copyOf(entries());
        } catch (MpiError e) {
            throw Errors.raise(e);
        }
    }

    /** Frees the object; it becomes {@code MPI.INFO_NULL} ({@code MPI_INFO_FREE}). */
    @Override
    public void free() throws MPIException {
        MPI.check();
        try {
            live(true);
            freed = true;
        } catch (MpiError e) {
            throw Errors.raise(e);
        }
    }

    /** @return whether this is {@code MPI.INFO_NULL} or was freed */
    public boolean isNull() {
        return freed;
    }

    synchronized Map<String, String> entries() {
        return new LinkedHashMap<>(entries);
    }

    private void live(boolean change) {
        if (freed) {
            throw new MpiError(ErrorClass.ERR_INFO, "the info object is MPI.INFO_NULL or was freed");
        }
        if (change && predefined) {
            throw new MpiError(ErrorClass.ERR_INFO, "MPI.INFO_ENV cannot be changed or freed");
        }
    }

    private static void checkKey(String key) {
        if (key == null || key.isEmpty() || key.length() > MPI.MAX_INFO_KEY) {
            throw new MpiError(ErrorClass.ERR_INFO_KEY, "info key '" + key + "' must be 1 to " + MPI.MAX_INFO_KEY
                + " characters");
        }
    }

    @Override
    public String toString() {
        return freed ? "MPI.INFO_NULL" : "Info" + entries();
    }
}
