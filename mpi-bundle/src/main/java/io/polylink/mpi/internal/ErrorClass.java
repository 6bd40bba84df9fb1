package io.polylink.mpi.internal;

/**
 * The MPI error classes the engine raises, with Open MPI's values (the {@code mpi.MPI} constants
 * of the same names hold the same numbers).
 */
public final class ErrorClass {

    public static final int SUCCESS = 0;
    public static final int ERR_BUFFER = 1;
    public static final int ERR_COUNT = 2;
    public static final int ERR_TYPE = 3;
    public static final int ERR_TAG = 4;
    public static final int ERR_COMM = 5;
    public static final int ERR_RANK = 6;
    public static final int ERR_REQUEST = 7;
    public static final int ERR_ROOT = 8;
    public static final int ERR_GROUP = 9;
    public static final int ERR_OP = 10;
    public static final int ERR_TOPOLOGY = 11;
    public static final int ERR_DIMS = 12;
    public static final int ERR_ARG = 13;
    public static final int ERR_UNKNOWN = 14;
    public static final int ERR_TRUNCATE = 15;
    public static final int ERR_OTHER = 16;
    public static final int ERR_INTERN = 17;
    public static final int ERR_IN_STATUS = 18;
    public static final int ERR_PENDING = 19;
    public static final int ERR_INFO_KEY = 31;
    public static final int ERR_INFO_NOKEY = 32;
    public static final int ERR_INFO_VALUE = 33;
    public static final int ERR_INFO = 34;
    public static final int ERR_KEYVAL = 36;
    public static final int ERR_NO_MEM = 39;
    public static final int ERR_UNSUPPORTED_OPERATION = 52;
    public static final int ERR_PROC_ABORTED = 74;
    public static final int ERR_LASTCODE = 92;

    private ErrorClass() {}
}
