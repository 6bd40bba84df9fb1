package io.polylink.mpi.internal.coll;

import io.polylink.mpi.internal.coll.schedule.Plan;
import io.polylink.mpi.internal.datatype.LocalCopy;
import io.polylink.mpi.internal.datatype.Region;
import io.polylink.mpi.internal.datatype.Typemap;
import io.polylink.mpi.internal.op.Operand;
import io.polylink.mpi.internal.op.Reduction;

/**
 * A rank's partial result of a reduction while an algorithm is planned: which operand holds it
 * after each combining step. Combining keeps it in place, except that a non-commutative
 * operation's result of combining with a higher rank's data lands in that data's operand (a
 * user's function writes into its second argument), which then holds the partial result.
 */
final class Partial {

    final Reduction reduction;
    final Typemap map;
    final long count;
    private Operand current;

    /** A partial result in an operand of its own, for {@code count} elements of {@code map}. */
    Partial(Reduction reduction, Typemap map, long count) {
        this.reduction = reduction;
        this.map = map;
        this.count = count;
        this.current = reduction.operand(map, count);
    }

    /** @return the operand that holds the partial result after the steps planned so far */
    Operand current() {
        return current;
    }

    /** @return a new operand of the same size, to receive into */
    Operand fresh() {
        return reduction.operand(map, count);
    }

    /** Adds the step that copies {@code input} into the partial result. */
    int load(Plan plan, Region input, int... after) {
        Operand into = current;
        return plan.local(() -> LocalCopy.copy(input, into.region()), after);
    }

    /** Adds the step that copies elements {@code first} to {@code first + n - 1} of the result to {@code output}. */
    int store(Plan plan, long first, long n, Region output, int... after) {
        Region from = current.slice(first, n);
        return plan.local(() -> LocalCopy.copy(from, output), after);
    }

    /**
     * Adds the step that combines {@code other}'s elements {@code first} to {@code first + n - 1}
     * into the partial result.
     *
     * @param lower whether {@code other} holds lower ranks' data than the partial result
     * @return the step
     */
    int absorb(Plan plan, Operand other, boolean lower, long first, long n, int... after) {
        Operand mine = current;
        Reduction r = reduction;
        if (lower || r.commutative()) {
            return plan.local(() -> r.combine(other, mine, first, n), after);
        }
        current = other;
        return plan.local(() -> r.combine(mine, other, first, n), after);
    }

    /** {@link #absorb} of all elements. */
    int absorb(Plan plan, Operand other, boolean lower, int... after) {
        return absorb(plan, other, lower, 0, count, after);
    }

    /**
     * Adds the steps that reduce up {@code tree}: each child's subtree result is received and
     * combined, children in order (each holding higher ranks than the ones before, in a binomial
     * tree rooted at rank 0), and the result is sent to the parent.
     *
     * @return the last step: the send to the parent, or at the root the last combination
     */
    int up(Plan plan, Trees.Tree tree, int after) {
        int done = after;
        for (int child : tree.children()) {
            Operand in = fresh();
            int received = plan.receive(child, in.region());
            done = absorb(plan, in, false, received, done);
        }
        return tree.parent() >= 0 ? plan.send(tree.parent(), current.region(), done) : done;
    }
}
