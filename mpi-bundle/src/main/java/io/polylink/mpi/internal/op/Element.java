package io.polylink.mpi.internal.op;

import io.polylink.mpi.internal.datatype.Kind;

/**
 * The predefined datatype a datatype is made of, as MPI's table of reduction operations sees it:
 * a basic type, a pair for {@code MINLOC} and {@code MAXLOC}, a complex type, or {@link #MIXED}
 * for a struct of several. As in the Open MPI bindings, {@code BYTE} and {@code CHAR} are
 * unsigned 8- and 16-bit integers and {@code BOOLEAN} an unsigned byte holding 0 or 1.
 */
public enum Element {
    BYTE("MPI.BYTE", Kind.BYTE, null),
    CHAR("MPI.CHAR", Kind.CHAR, null),
    SHORT("MPI.SHORT", Kind.SHORT, null),
    BOOLEAN("MPI.BOOLEAN", Kind.BOOLEAN, null),
    INT("MPI.INT", Kind.INT, null),
    LONG("MPI.LONG", Kind.LONG, null),
    FLOAT("MPI.FLOAT", Kind.FLOAT, null),
    DOUBLE("MPI.DOUBLE", Kind.DOUBLE, null),
    PACKED("MPI.PACKED", Kind.BYTE, null),
    INT2("MPI.INT2", Kind.INT, Kind.INT),
    SHORT_INT("MPI.SHORT_INT", Kind.SHORT, Kind.INT),
    LONG_INT("MPI.LONG_INT", Kind.LONG, Kind.INT),
    FLOAT_INT("MPI.FLOAT_INT", Kind.FLOAT, Kind.INT),
    DOUBLE_INT("MPI.DOUBLE_INT", Kind.DOUBLE, Kind.INT),
    FLOAT_COMPLEX("MPI.FLOAT_COMPLEX", Kind.FLOAT, Kind.FLOAT),
    DOUBLE_COMPLEX("MPI.DOUBLE_COMPLEX", Kind.DOUBLE, Kind.DOUBLE),
    MIXED("a struct of several types", null, null);

    private final String label;
    private final Kind first;
    private final Kind second;

    Element(String label, Kind first, Kind second) {
        this.label = label;
        this.first = first;
        this.second = second;
    }

    /** @return the kind of its (first) primitive; {@code null} for {@link #MIXED} */
    Kind kind() {
        return first;
    }

    /** @return whether it is a pair of two primitives: a value and an index, or a complex number */
    boolean pair() {
        return second != null;
    }

    /** @return whether all its primitives are of one kind, so an array of that kind holds it */
    boolean uniform() {
        return first != null && (second == null || second == first);
    }

    /** @return the bytes of one, packed */
    int size() {
        return first.size() + (second == null ? 0 : second.size());
    }

    /** @return whether it is an integer type in MPI's sense: {@code BYTE}, {@code CHAR}, {@code SHORT}, {@code INT}, {@code LONG} */
    boolean integer() {
        return this == BYTE || this == CHAR || this == SHORT || this == INT || this == LONG;
    }

    /** @return what a datatype built of {@code parts} is made of: theirs if all agree, else {@link #MIXED} */
    public static Element of(Element... parts) {
        Element e = null;
        for (Element p : parts) {
            if (e == null) {
                e = p;
            } else if (e != p) {
                return MIXED;
            }
        }
        return e == null ? MIXED : e;
    }

    @Override
    public String toString() {
        return label;
    }
}
