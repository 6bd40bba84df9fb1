package io.polylink.mpi.internal.op;

import io.polylink.mpi.internal.datatype.Region;
import io.polylink.mpi.internal.datatype.Typemap;

/**
 * An operation applied to one datatype: how a collective combines two partial results. Made once
 * per call, used by whichever threads run the collective's steps, one step at a time.
 */
public interface Reduction {

    /** @return whether operands may be combined in any order; if not, in rank order */
    boolean commutative();

    /**
     * @return whether it combines parts of operands ({@link #combine} with {@code first > 0} or
     *     fewer than all elements), which the algorithms that split a vector among ranks need
     */
    boolean splits();

    /**
     * @param map the datatype's layout
     * @param count its elements
     * @return a new operand for {@code count} elements, to receive a partial result into
     * @throws io.polylink.mpi.internal.MpiError {@code ERR_COUNT} if they do not fit one array
     */
    Operand operand(Typemap map, long count);

    /**
     * @param region where the caller wants the result, {@code count} elements of {@code map}
     * @return an operand over {@code region}'s own memory, to combine in place of a copy, or
     *     {@code null} if the kernels cannot work on it as it is laid out
     */
    default Operand operandIn(Region region, Typemap map, long count) {
        return null;
    }

    /**
     * @param into an operand of this reduction's
     * @return {@code into} as a receive buffer that combines what arrives into its elements
     *     ({@code into = arrived op into}), for one receive; or {@code null} if this reduction
     *     cannot combine a message piece by piece as it is unpacked (a user's function, pairs)
     */
    default Operand combining(Operand into) {
        return combining(into, into);
    }

    /**
     * @param into an operand of this reduction's
     * @param source an operand laid out as {@code into}, such as one {@link #operandIn} made over a
     *     rank's own data
     * @return {@code into} as a receive buffer that sets each element that arrives to the arrived
     *     value combined with {@code source}'s ({@code into = arrived op source}), for one receive;
     *     or {@code null} as {@link #combining(Operand)}
     */
    default Operand combining(Operand into, Operand source) {
        return null;
    }

    /**
     * Combines elements {@code first} to {@code first + n - 1}: {@code right = left op right},
     * where {@code left} holds the lower ranks' data when the operation is not commutative.
     *
     * @throws io.polylink.mpi.internal.MpiError if a user's function failed
     */
    void combine(Operand left, Operand right, long first, long n);

    /** @return the operation and datatype, as errors and explanations name them */
    String describe();
}
