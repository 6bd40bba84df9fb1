package mpi;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.op.Operator;
import io.polylink.mpi.internal.op.Predefined;
import io.polylink.mpi.internal.op.Reduction;
import io.polylink.mpi.internal.op.UserReduction;
import java.nio.ByteBuffer;

/**
 * A reduction operation ({@code MPI_Op}): one of the predefined ones in {@link MPI}, or a
 * {@link UserFunction}. Predefined operations apply to the types MPI's table says (as in the Open
 * MPI bindings, {@code BYTE} and {@code CHAR} are unsigned integers); a user's function gets the
 * data as the bindings give it: direct byte buffers in native order, laid out as the datatype lays
 * out {@code count} elements, or {@code boolean[]}s for datatypes of booleans.
 */
public final class Op implements Freeable {

    static final int MAX = 1;
    static final int MIN = 2;
    static final int SUM = 3;
    static final int PROD = 4;
    static final int LAND = 5;
    static final int BAND = 6;
    static final int LOR = 7;
    static final int BOR = 8;
    static final int LXOR = 9;
    static final int BXOR = 10;
    static final int MINLOC = 11;
    static final int MAXLOC = 12;
    static final int REPLACE = 13;
    static final int NO_OP = 14;

    /** The user's function, or {@code null} for a predefined operation. */
    protected final UserFunction uf;
    private final int predefined;
    private final boolean commute;
    private volatile boolean freed;

    Op(int predefined) {
        this.uf = null;
        this.predefined = predefined;
        this.commute = true;
    }

    /**
     * Makes an operation of a user's function ({@code MPI_OP_CREATE}).
     *
     * @param function the function
     * @param commute whether it is commutative; a non-commutative one is applied in rank order
     */
    public Op(UserFunction function, boolean commute) {
        this.uf = function;
        this.predefined = 0;
        this.commute = commute;
    }

    /** @return whether the operation is commutative ({@code MPI_OP_COMMUTATIVE}) */
    public boolean isCommutative() {
        return commute;
    }

    /** Frees a user's operation ({@code MPI_OP_FREE}). @throws MPIException for a predefined one */
    @Override
    public void free() throws MPIException {
        MPI.check();
        if (predefined != 0) {
            throw Errors.raise(new io.polylink.mpi.internal.MpiError(MPI.ERR_OP,
                "a predefined operation cannot be freed"));
        }
        freed = true;
    }

    /** @return whether the operation was freed ({@code MPI_OP_NULL}) */
    public boolean isNull() {
        return freed;
    }

    /**
     * @return this operation on {@code type}
     * @throws MpiError {@code ERR_OP} if it was freed, or does not apply to {@code type}
     */
    Reduction reduction(Datatype type) {
        if (freed) {
            throw new MpiError(ErrorClass.ERR_OP, "the operation was freed");
        }
        if (uf == null) {
            return Predefined.of(Operator.of(predefined), type.element);
        }
        boolean booleans = type.baseType == Datatype.BOOLEAN;
        return new UserReduction((in, inout, count) -> {
            try {
                if (booleans) {
                    uf.call(in, inout, count, type);
                } else {
                    uf.call((ByteBuffer) in, (ByteBuffer) inout, count, type);
                }
            } catch (MPIException e) {
                throw new MpiError(e.getErrorClass(), "the user operation " + uf.getClass().getName() + " failed: "
                    + e.getMessage(), e);
            }
        }, commute, booleans, uf.getClass().getName());
    }

    /** @return {@code op} on {@code type}, for a collective's call @throws MpiError {@code ERR_OP} as {@link #reduction} */
    static Reduction of(Op op, Datatype type) {
        if (op == null) {
            throw new MpiError(ErrorClass.ERR_OP, "the operation is null");
        }
        return op.reduction(type);
    }
}
