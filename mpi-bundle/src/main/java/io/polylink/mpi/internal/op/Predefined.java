package io.polylink.mpi.internal.op;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.datatype.Kind;
import io.polylink.mpi.internal.datatype.Memories;
import io.polylink.mpi.internal.datatype.Memory;
import io.polylink.mpi.internal.datatype.Region;
import io.polylink.mpi.internal.datatype.Typemap;

/**
 * A predefined operation on a datatype of one predefined type. Operands hold the data's primitives
 * packed in an array of their kind (pairs of a value and an index of different kinds: records in a
 * byte array), which messages fill and empty as they would the datatype: the wire carries the
 * same primitives in the same order.
 */
public final class Predefined implements Reduction {

    private static final int MAX_ARRAY = Integer.MAX_VALUE - 8;

    /**
     * The ones made so far, by operator and element: every call of a collective names its
     * operation anew, and a small call would otherwise make one, and its kernel, each time.
     */
    private static final Predefined[][] MADE = new Predefined[Operator.values().length][Element.values().length];

    private final Operator op;
    private final Element element;
    /** The loop on arrays; {@link #kernel} is it staging direct buffers where the element is uniform. */
    private final Kernel arrays;
    private final Kernel kernel;
    /** Whether each primitive combines with the one at its own index: the kinds alone, and sums of complex numbers. */
    private final boolean pointwise;

    private Predefined(Operator op, Element element, Kernel kernel) {
        this.op = op;
        this.element = element;
        this.arrays = kernel;
        this.kernel = element.uniform() ? new StagedKernel(kernel, element.kind()) : kernel;
        boolean complexSum = (element == Element.FLOAT_COMPLEX || element == Element.DOUBLE_COMPLEX)
            && op == Operator.SUM;
        this.pointwise = element.uniform() && (!element.pair() || complexSum);
    }

    /**
     * @param element what the datatype is made of
     * @return {@code op} on {@code element}
     * @throws MpiError {@code ERR_OP} if MPI does not define {@code op} on {@code element}, saying on what it is defined
     */
    public static Predefined of(Operator op, Element element) {
        Predefined[] byElement = MADE[op.ordinal()];
        Predefined made = byElement[element.ordinal()];
        if (made == null) {
            // Racing callers each make the same immutable one: any of them may stay.
            made = make(op, element);
            byElement[element.ordinal()] = made;
        }
        return made;
    }

    private static Predefined make(Operator op, Element element) {
        Kernel kernel = switch (element) {
            case SHORT_INT, LONG_INT, FLOAT_INT, DOUBLE_INT -> op == Operator.MINLOC || op == Operator.MAXLOC
                ? new Locations(element.kind(), op == Operator.MINLOC) : null;
            case MIXED, PACKED -> null;
            default -> Kernels.of(op, element);
        };
        if (kernel == null) {
            throw new MpiError(ErrorClass.ERR_OP, op + " does not apply to " + element + ": " + applies(op));
        }
        return new Predefined(op, element, kernel);
    }

    /** @return on what MPI defines {@code op} */
    private static String applies(Operator op) {
        return switch (op) {
            case MAX, MIN -> "it applies to MPI.BYTE, CHAR, SHORT, INT, LONG, FLOAT, DOUBLE and BOOLEAN, and to "
                + "datatypes made of one of them";
            case SUM, PROD -> "it applies to MPI.BYTE, CHAR, SHORT, INT, LONG, FLOAT, DOUBLE, FLOAT_COMPLEX and "
                + "DOUBLE_COMPLEX, and to datatypes made of one of them";
            case LAND, LOR, LXOR, BAND, BOR, BXOR -> "it applies to MPI.BYTE, CHAR, SHORT, INT, LONG and BOOLEAN, and "
                + "to datatypes made of one of them";
            case MINLOC, MAXLOC -> "it applies to the pairs MPI.INT2, SHORT_INT, LONG_INT, FLOAT_INT and DOUBLE_INT, "
                + "and to datatypes made of one of them";
            case REPLACE, NO_OP -> "it is for one-sided accumulates, not for collectives";
        } + (op == Operator.REPLACE || op == Operator.NO_OP ? "" : "; for anything else write a user operation, "
            + "new Op(UserFunction, commute)");
    }

    @Override
    public boolean commutative() {
        return true;
    }

    @Override
    public boolean splits() {
        return true;
    }

    @Override
    public Operand operand(Typemap map, long count) {
        if (element.uniform()) {
            Kind kind = element.kind();
            long perCopy = map.elements();
            int length = length(count, perCopy);
            Object array = kind.newArray(length);
            return over(Memories.of(array, true), array, kind, length, perCopy);
        }
        int record = element.size();
        long perCopy = map.size() / record;
        int records = length(count, perCopy);
        byte[] bytes = new byte[Math.multiplyExact(records, record)];
        Typemap pair = Typemap.struct(new int[] {1, 1}, new long[] {0, element.kind().size()},
            new Typemap[] {Typemap.basic(element.kind()), Typemap.basic(Kind.INT)});
        return new Operand(bytes, new Region(Memories.ofBytes(bytes, 0), Typemap.resized(pair, 0, record), records),
            (int) perCopy);
    }

    /**
     * A Java array of the element's kind, from its element 0: the kernels' own layout; or the
     * values of a direct buffer, laid out so, which the kernels combine in chunks staged in arrays.
     */
    @Override
    public Operand operandIn(Region region, Typemap map, long count) {
        if (!element.uniform()) {
            return null;
        }
        Kind kind = element.kind();
        Object data = region.denseArray(kind);
        if (data == null && kind != Kind.BOOLEAN) {
            data = region.denseBytes(kind);
        }
        if (data == null) {
            return null;
        }
        long perCopy = map.elements();
        return over(region.memory(), data, kind, length(count, perCopy), perCopy);
    }

    /**
     * @return an operand of {@code length} values of {@code kind} in {@code data} (an array, or a
     *     byte buffer of the values in native order), which {@code memory} holds from its start
     */
    private static Operand over(Memory memory, Object data, Kind kind, int length, long perCopy) {
        return new Operand(data, new Region(memory, Typemap.basic(kind), length), (int) perCopy);
    }

    private int length(long count, long perCopy) {
        if (perCopy > MAX_ARRAY || count * perCopy > MAX_ARRAY) {
            throw new MpiError(ErrorClass.ERR_COUNT, count + " elements of " + perCopy + " " + element + " each are too "
                + "many to reduce at once: split the reduction into parts of fewer than " + MAX_ARRAY + " values");
        }
        return (int) (count * perCopy);
    }

    @Override
    public Operand combining(Operand into, Operand source) {
        if (!pointwise) {
            return null;
        }
        Kind kind = element.kind();
        int length = (int) into.region().count();
        Memory memory = new CombiningMemory(arrays, kind, into.data(), source.data(), length);
        return new Operand(into.data(), new Region(memory, Typemap.basic(kind), length), into.unit());
    }

    @Override
    public void combine(Operand left, Operand right, long first, long n) {
        int unit = left.unit();
        kernel.apply(left.data(), 0, right.data(), (int) (first * unit), (int) ((first + n) * unit));
    }

    @Override
    public String describe() {
        return op + " on " + element;
    }
}
