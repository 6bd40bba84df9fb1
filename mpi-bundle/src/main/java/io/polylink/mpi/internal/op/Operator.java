package io.polylink.mpi.internal.op;

/**
 * MPI's predefined reduction operations, by their names in {@code mpi.MPI}, in the order of the
 * Open MPI bindings' codes from 1: the operation of code {@code c} is {@code values()[c - 1]}.
 */
public enum Operator {
    MAX, MIN, SUM, PROD, LAND, BAND, LOR, BOR, LXOR, BXOR, MINLOC, MAXLOC, REPLACE, NO_OP;

    private static final Operator[] BY_CODE = values();

    /** @return the operation of the bindings' code {@code code}, from 1 */
    public static Operator of(int code) {
        return BY_CODE[code - 1];
    }

    /** @return whether it is a logical operation: {@code LAND}, {@code LOR}, {@code LXOR} */
    boolean logical() {
        return this == LAND || this == LOR || this == LXOR;
    }

    /** @return whether it is a bitwise operation: {@code BAND}, {@code BOR}, {@code BXOR} */
    boolean bitwise() {
        return this == BAND || this == BOR || this == BXOR;
    }

    @Override
    public String toString() {
        return "MPI." + name();
    }
}
