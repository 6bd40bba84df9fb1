package io.polylink.mpi.internal.op;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.datatype.Memories;
import io.polylink.mpi.internal.datatype.Region;
import io.polylink.mpi.internal.datatype.Typemap;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A user's operation ({@code new Op(UserFunction, commute)}). Its operands are laid out as the
 * datatype lays out {@code count} elements, {@code count} times the extent from the start: a
 * direct byte buffer in native order, or a {@code boolean[]} for datatypes of booleans, as the
 * Open MPI bindings hand them to the function. It combines whole operands only.
 */
public final class UserReduction implements Reduction {

    /** Calls the user's function: {@code inout = in op inout} over {@code count} elements. */
    @FunctionalInterface
    public interface Function {
        /**
         * @param in a direct byte buffer or a {@code boolean[]}
         * @param inout the same, the accumulator
         * @throws MpiError what the function threw, as an MPI error
         */
        void call(Object in, Object inout, int count);
    }

    private final Function function;
    private final boolean commutative;
    private final boolean booleans;
    private final String name;

    /**
     * @param booleans whether the datatype's base type is {@code BOOLEAN}: operands are then {@code boolean[]}s
     * @param name the function, as errors name it
     */
    public UserReduction(Function function, boolean commutative, boolean booleans, String name) {
        this.function = function;
        this.commutative = commutative;
        this.booleans = booleans;
        this.name = name;
    }

    @Override
    public boolean commutative() {
        return commutative;
    }

    @Override
    public boolean splits() {
        return false;
    }

    @Override
    public Operand operand(Typemap map, long count) {
        if (map.trueLb() < 0 || (count > 1 && map.extent() <= 0)) {
            throw new MpiError(ErrorClass.ERR_TYPE, "a user operation takes datatypes whose data lies at or after their "
                + "start and whose elements follow one another; this one (" + map + ") has true lower bound "
                + map.trueLb() + " and extent " + map.extent());
        }
        long span = count == 0 ? 0 : Math.max(count * map.extent(), (count - 1) * map.extent() + map.trueLb()
            + map.trueExtent());
        if (span > Integer.MAX_VALUE - 8) {
            throw new MpiError(ErrorClass.ERR_COUNT, count + " elements span " + span + " bytes, too many for one "
                + "buffer of a user operation");
        }
        if (booleans) {
            boolean[] data = new boolean[(int) span];
            return new Operand(data, new Region(Memories.of(data, true), map, count), 1);
        }
        ByteBuffer data = ByteBuffer.allocateDirect((int) span).order(ByteOrder.nativeOrder());
        return new Operand(data, new Region(Memories.of(data, true), map, count), 1);
    }

    @Override
    public void combine(Operand left, Operand right, long first, long n) {
        if (first != 0 || n != right.region().count()) {
            throw new IllegalStateException("a user operation combines whole operands");
        }
        Object in = booleans ? left.data() : ((ByteBuffer) left.data()).duplicate().order(ByteOrder.nativeOrder());
        Object inout = booleans ? right.data() : ((ByteBuffer) right.data()).duplicate().order(ByteOrder.nativeOrder());
        try {
            function.call(in, inout, (int) n);
        } catch (MpiError | VirtualMachineError e) {
            throw e;
        } catch (RuntimeException | Error e) {
            throw new MpiError(ErrorClass.ERR_OTHER, "the user operation " + name + " threw " + e, e);
        }
    }

    @Override
    public String describe() {
        return "the user operation " + name + (commutative ? "" : " (not commutative)");
    }
}
