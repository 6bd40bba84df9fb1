package io.polylink.mpi.internal.coll;

import io.polylink.mpi.internal.coll.schedule.Direct;
import io.polylink.mpi.internal.coll.schedule.Plan;
import io.polylink.mpi.internal.datatype.LocalCopy;
import io.polylink.mpi.internal.datatype.Region;
import io.polylink.mpi.internal.datatype.Typemap;
import io.polylink.mpi.internal.op.Operand;
import io.polylink.mpi.internal.op.Reduction;
import java.util.Arrays;

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
    /** The caller's result buffer, and it as an operand if the kernels can combine in it; else {@code null}. */
    private final Region resultBuffer;
    private final Operand result;
    private Operand current;
    /** Whether messages combine into the partial result as they arrive; decided at the first question. */
    private Boolean combinesArriving;

    /** A partial result in an operand of its own, for {@code count} elements of {@code map}. */
    Partial(Reduction reduction, Typemap map, long count) {
        this(reduction, map, count, null);
    }

    /**
     * A partial result kept in {@code result}, the caller's buffer for the result, where the
     * kernels can combine in it: no operand to allocate, no copy out at the end. Elsewhere (a
     * derived or mixed layout, a user's function, no {@code result} given) in an operand of its own.
     */
    Partial(Reduction reduction, Typemap map, long count, Region result) {
        this.reduction = reduction;
        this.map = map;
        this.count = count;
        this.resultBuffer = result;
        this.result = result == null ? null : reduction.operandIn(result, map, count);
        this.current = this.result != null ? this.result : reduction.operand(map, count);
    }

    /** @return the operand that holds the partial result after the steps planned so far */
    Operand current() {
        return current;
    }

    /** @return whether the partial result is kept in the caller's result buffer */
    boolean inResultBuffer() {
        return current == result && result != null;
    }

    /** @return a new operand of the same size, to receive into */
    Operand fresh() {
        return reduction.operand(map, count);
    }

    /**
     * @return whether {@link #absorbArriving} combines a message into the partial result as it is
     *     unpacked (a commutative operation that combines element by element), so that it needs no
     *     spare operand
     */
    private boolean combinesArriving() {
        if (combinesArriving == null) {
            combinesArriving = reduction.commutative() && reduction.combining(current) != null;
        }
        return combinesArriving;
    }

    /**
     * @return an operand to receive into where messages cannot
     *     {@linkplain #combinesArriving() combine as they arrive}; else {@code null}
     */
    Operand spare() {
        return combinesArriving() ? null : fresh();
    }

    /**
     * Adds the steps that receive elements {@code first} to {@code first + n - 1} of another
     * partial result from {@code source} and combine them into this one. Where it
     * {@linkplain #combinesArriving() can}, the receive combines as it unpacks, posted once the
     * steps {@code after} completed (arriving data must not meet a combination still running);
     * otherwise the data lands in {@code spare}, received once {@code receiveAfter} completed, and
     * is combined once it and the steps {@code after} did.
     *
     * @param spare where the data lands if it cannot combine as it arrives; unused (may be
     *     {@code null}) if it can
     * @param receiveAfter the step the receive into {@code spare} waits for, or {@link Plan#NONE}
     * @return the step after which the data is combined
     */
    int absorbArriving(Plan plan, int source, Operand spare, long first, long n, int receiveAfter, int... after) {
        if (combinesArriving()) {
            // A combining receive buffer for each receive: receives of different segments may
            // unpack at once, on different threads.
            return plan.receive(source, reduction.combining(current).slice(first, n), after);
        }
        int received = plan.receive(source, spare.slice(first, n), receiveAfter);
        int[] waits = Arrays.copyOf(after, after.length + 1);
        waits[after.length] = received;
        return absorb(plan, spare, false, first, n, waits);
    }

    /**
     * {@link #absorbArriving} of elements {@code first} to {@code first + n - 1} that the partial
     * result does not hold yet: they are this rank's {@code input}, which is not the result buffer.
     * Where the message can combine as it arrives and the kernels can read {@code input} where it
     * lies, each arriving element is combined with {@code input}'s into the partial result, which
     * loads them and combines them in one pass; otherwise {@code input}'s elements are copied in
     * first, once the steps {@code after} completed.
     *
     * @return the step after which the data is combined
     */
    int absorbArrivingOnto(Plan plan, int source, Operand spare, Region input, long first, long n, int after) {
        Operand own = combinesArriving() ? reduction.operandIn(input, map, count) : null;
        if (own == null) {
            int loaded = load(plan, input, first, n, after);
            return absorbArriving(plan, source, spare, first, n, loaded, loaded);
        }
        return plan.receive(source, reduction.combining(current, own).slice(first, n), after);
    }

    /**
     * Adds the step that copies {@code input} into the partial result; none if the partial result
     * is kept in the result buffer and {@code input} is that buffer ({@code MPI_IN_PLACE}).
     */
    int load(Plan plan, Region input, boolean inResult, int... after) {
        Operand into = current;
        if (inResult && into == result) {
            return plan.join(after);
        }
        return plan.local(() -> LocalCopy.copy(input, into.region()), after);
    }

    /**
     * Adds the step that copies elements {@code first} to {@code first + n - 1} of {@code input},
     * which is not the result buffer, into the partial result.
     */
    int load(Plan plan, Region input, long first, long n, int after) {
        Operand into = current;
        return plan.local(() -> LocalCopy.copy(input.slice(first, n), into.slice(first, n)), after);
    }

    /** {@link #load} of an input that is not the result buffer. */
    int load(Plan plan, Region input, int... after) {
        return load(plan, input, false, after);
    }

    /**
     * Adds the step that copies elements {@code first} to {@code first + n - 1} of the result to
     * {@code output}; none if the result is there already, kept in the result buffer.
     */
    int store(Plan plan, long first, long n, Region output, int... after) {
        if (current == result && output == resultBuffer && first == 0) {
            return plan.join(after);
        }
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

    /** {@link #load(Plan, Region, boolean, int...)} now, on the calling thread. */
    void loadNow(Region input, boolean inResult) {
        if (!(inResult && current == result)) {
            LocalCopy.copy(input, current.region());
        }
    }

    /**
     * Combines {@code other} into the partial result now, on the calling thread, as
     * {@link #absorb(Plan, Operand, boolean, int...)} plans it.
     *
     * @return the operand that is free after: {@code other}, or the one that held the partial
     *     result if {@code other} holds it now
     */
    Operand absorbNow(Operand other, boolean lower) {
        Operand mine = current;
        if (lower || reduction.commutative()) {
            reduction.combine(other, mine, 0, count);
            return other;
        }
        reduction.combine(mine, other, 0, count);
        current = other;
        return mine;
    }

    /**
     * {@link #up(Plan, Trees.Tree, int)} run now: each child's subtree result received and
     * combined in turn, then the result sent to the parent.
     */
    void upNow(Direct d, Trees.Tree tree) {
        Operand spare = null;
        for (int child : tree.children()) {
            if (combinesArriving()) {
                d.receive(child, reduction.combining(current).region());
            } else {
                spare = spare != null ? spare : fresh();
                d.receive(child, spare.region());
                spare = absorbNow(spare, false);
            }
        }
        if (tree.parent() >= 0) {
            d.send(tree.parent(), current.region());
        }
    }

    /** Copies the whole result to {@code output} now, unless it is there already. */
    void storeNow(Region output) {
        if (current != result || output != resultBuffer) {
            LocalCopy.copy(current.region(), output);
        }
    }

    /**
     * Adds the steps that reduce up {@code tree}: each child's subtree result is received and
     * combined, children in order (each holding higher ranks than the ones before, in a binomial
     * tree rooted at rank 0), and the result is sent to the parent.
     *
     * @return the last step: the send to the parent, or at the root the last combination
     */
    int up(Plan plan, Trees.Tree tree, int after) {
        return up(plan, tree, Math.max(1, count), null, false, after);
    }

    /**
     * Adds the steps that reduce up {@code tree} in segments of {@code segment} elements: a
     * segment is combined and passed on as soon as the children's parts of it arrived, while
     * later segments are still on their way, so combining overlaps with moving. More than one
     * segment needs a commutative operation that {@linkplain Reduction#splits() splits}.
     *
     * <p>Where the partial result does not hold this rank's {@code input} yet, a leaf sends it as it
     * lies, and a rank with children combines its first child's data with {@code input}'s as they
     * arrive, loading and combining in one pass ({@link #absorbArrivingOnto}), rather than copy
     * {@code input} in first.
     *
     * @param input this rank's data; {@code null} if the partial result holds it already
     * @param inResult whether {@code input} is the result buffer (in place), where a partial
     *     result kept there holds it already
     * @return the step after which every segment was combined here and sent to the parent
     */
    int up(Plan plan, Trees.Tree tree, long segment, Region input, boolean inResult, int after) {
        int[] children = tree.children();
        Region own = input;
        int start = after;
        if (own != null && ((inResult && current == result) || (children.length == 0 && tree.parent() < 0))) {
            start = load(plan, own, inResult, after);
            own = null;
        }
        int segments = count <= segment ? 1 : (int) ((count + segment - 1) / segment);
        if (segments > 1 && !(reduction.commutative() && reduction.splits())) {
            throw new IllegalArgumentException(reduction.describe() + " combines whole vectors in rank order only");
        }
        Operand[] in = new Operand[children.length];
        for (int i = 0; i < in.length; i++) {
            in[i] = spare();
        }
        int[] last = new int[segments];
        for (int s = 0; s < segments; s++) {
            long first = s * segment;
            long n = Math.min(segment, count - first);
            if (children.length == 0 && own != null) {
                last[s] = plan.send(tree.parent(), own.slice(first, n), start);
                continue;
            }
            int done = start;
            for (int i = 0; i < children.length; i++) {
                done = i == 0 && own != null
                    ? absorbArrivingOnto(plan, children[0], in[0], own, first, n, start)
                    : absorbArriving(plan, children[i], in[i], first, n, Plan.NONE, done);
            }
            last[s] = tree.parent() >= 0 ? plan.send(tree.parent(), current.slice(first, n), done) : done;
        }
        return segments == 1 ? last[0] : plan.join(last);
    }
}
