package io.polylink.mpi.internal.coll;

import io.polylink.mpi.internal.coll.schedule.Direct;
import io.polylink.mpi.internal.coll.schedule.Plan;
import io.polylink.mpi.internal.datatype.LocalCopy;
import io.polylink.mpi.internal.datatype.Region;
import io.polylink.mpi.internal.datatype.Typemap;
import io.polylink.mpi.internal.op.Operand;
import io.polylink.mpi.internal.op.Reduction;
import io.polylink.mpi.internal.request.Operation;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * {@code MPI_Allreduce}: every rank gets the reduction of all ranks' data.
 *
 * <ul>
 *   <li>{@code recursive-doubling}: in round {@code k} each rank swaps its partial result with the
 *       rank {@code 2^k} away and combines: {@code log2 n} rounds of the whole vector, for small
 *       vectors and for every operation (the partner's data is all lower or all higher ranks', so
 *       rank order holds). With {@code n} not a power of two, the first {@code 2r} ranks pair up
 *       first, and the odd ones take part for both (Thakur, Rabenseifner and Gropp).
 *   <li>{@code rabenseifner}: a reduce-scatter by recursive halving (each round swaps half of what
 *       is left) then an allgather by recursive doubling: each rank sends and combines about
 *       {@code 2 (n-1)/n} of the vector in {@code 2 log2 n} rounds, for large vectors among a power
 *       of two ranks.
 *   <li>{@code ring}: a reduce-scatter then an allgather round the ring, in blocks of
 *       {@code 1/n} of the vector: {@code 2 (n - 1)} rounds, every link busy in each, for large
 *       vectors among any number of ranks.
 *   <li>{@code shared-memory}: ranks of one host, in a blocking call of up to {@link HostArea#SLOT}
 *       bytes, put their data in a {@link HostArea} and each combines every rank's there, in rank
 *       order; from 16 to 64 KiB each combines its block of the vector from the others' data where
 *       it lies, and copies their blocks of the result ({@link SharedAllReduce}); up to 1 MiB, data
 *       that must be packed to be shared (Java arrays) goes round a ring a piece at a time through
 *       small buffers the ranks share ({@link SharedRingAllReduce}).
 * </ul>
 * The middle two split the vector, so they need a predefined (commutative) operation. Over several
 * hosts a commutative reduction is hierarchical: each host reduces to its leader up a binomial
 * tree, the leaders allreduce by one of the first three, and each leader broadcasts down its host.
 */
public final class AllReduce {

    /** Vectors up to this many bytes go by recursive doubling. */
    static final long DOUBLING_LIMIT = 16 * 1024;

    private AllReduce() {}

    /**
     * Starts an allreduce.
     *
     * @param sendbuf this rank's data; ignored when {@code inPlace}: the data is in {@code recvbuf}
     */
    public static Operation allReduce(Collectives c, Object sendbuf, Object recvbuf, int count, Typemap map,
                                      Reduction reduction, boolean inPlace, boolean blocking) {
        Region recv = Arguments.buffer(recvbuf, count, map, true, "the receive buffer");
        Region input = inPlace ? recv : Arguments.buffer(sendbuf, count, map, false, "the send buffer");
        long bytes = map.size() * count;
        Supplier<String> call = () -> "MPI_Allreduce of " + bytes + " bytes (" + reduction.describe() + ")";
        if (c.size() == 1) {
            c.chose(Collective.ALLREDUCE, call, new Choice("MPI_Allreduce", "copy", () -> "one rank"));
            Plan plan = c.plan();
            if (!inPlace) {
                plan.local(() -> LocalCopy.copy(input, recv));
            }
            return plan.start();
        }
        Partial partial = new Partial(reduction, map, count, recv);
        if (reduction.commutative() && c.hierarchical()) {
            Plan plan = c.plan();
            Placement placement = c.placement();
            int[] leaders = placement.leaders(0);
            int host = placement.hostOf(c.rank());
            int[] local = placement.ranksOn(host);
            Choice across = choose(c, leaders.length, bytes, count, reduction);
            c.chose(Collective.ALLREDUCE, call, new Choice("MPI_Allreduce", "hierarchical " + across.algorithm(),
                () -> "each host reduces to its leader, the " + leaders.length + " leaders by "
                    + across.algorithm() + " ("
                    + across.reason() + "), then each leader broadcasts to its host"));
            Trees.Tree tree = Trees.binomial(local, 0, Trees.indexOf(local, c.rank()));
            int done = partial.up(plan, tree, Math.max(1, count), input, inPlace, Plan.NONE);
            boolean leader = tree.parent() < 0;
            if (leader) {
                done = run(plan, across.algorithm(), leaders, host, partial, null, done);
            }
            Region result = leader ? partial.current().region() : recv;
            Broadcast.along(plan, tree, result, Math.max(1, result.count()), done);
            if (leader) {
                partial.store(plan, 0, count, recv, done);
            }
            return plan.start();
        }
        HostArea area = c.meeting(Collective.ALLREDUCE, bytes, blocking);
        if (area != null && bytes <= HostArea.SLOT) {
            c.chose(Collective.ALLREDUCE, call, new Choice("MPI_Allreduce", HostArea.ALGORITHM, () -> c.size()
                + " ranks on one host, " + bytes + " bytes <= " + HostArea.SLOT + ": each rank puts its data in "
                + "memory the ranks share, and combines every rank's in rank order once all have"));
            meet(area, partial, input);
            partial.storeNow(recv);
            return Collectives.DONE;
        }
        String unshared = null;
        if (area != null && SharedAllReduce.fits(reduction, map, count, c.size())) {
            unshared = SharedAllReduce.run(area, c.p2p(), c.rank(), partial, input, recv, inPlace);
            if (unshared == null) {
                c.chose(Collective.ALLREDUCE, call, new Choice("MPI_Allreduce", HostArea.ALGORITHM, () -> c.size()
                    + " ranks on one host, " + bytes + " bytes > " + HostArea.SLOT + ": each rank combines its block "
                    + "of the vector from every rank's data where it lies in memory the ranks share, then copies the "
                    + "others' blocks of the result"));
                partial.storeNow(recv);
                return Collectives.DONE;
            }
        }
        if (area != null && SharedRingAllReduce.fits(partial, count, c.size())) {
            unshared = SharedRingAllReduce.run(area, c.p2p(), c.rank(), partial, input, recv, inPlace);
            if (unshared == null) {
                c.chose(Collective.ALLREDUCE, call, new Choice("MPI_Allreduce", HostArea.ALGORITHM, () -> c.size()
                    + " ranks on one host, " + bytes + " bytes > " + SharedRingAllReduce.SMALLEST + " and up to "
                    + SharedRingAllReduce.LARGEST + ", packed to be shared: a reduce-scatter and an allgather round "
                    + "a ring, a piece at a time through memory the ranks share, each piece combined and written on "
                    + "while in the core's cache"));
                partial.storeNow(recv);
                return Collectives.DONE;
            }
        }
        boolean splits = reduction.splits() && reduction.commutative();
        // Remembered only for operations that split: another's reason names the operation.
        Choice choice = splits ? c.remembered(Collective.ALLREDUCE, bytes, count, true) : null;
        if (choice == null) {
            choice = choose(c, c.size(), bytes, count, reduction);
            if (splits) {
                c.remember(Collective.ALLREDUCE, bytes, count, true, choice);
            }
        }
        c.chose(Collective.ALLREDUCE, call, unshared != null ? choice.refusing(unshared)
            : c.unlessMet(Collective.ALLREDUCE, choice, bytes, blocking));
        if (blocking && c.direct(bytes) && choice.algorithm().equals("recursive-doubling")) {
            doubling(c.direct(), c.everyRank(), c.rank(), partial, input, inPlace);
            partial.storeNow(recv);
            return Collectives.DONE;
        }
        Plan plan = c.plan();
        int done = inPlace
            ? run(plan, choice.algorithm(), c.everyRank(), c.rank(), partial, null, partial.load(plan, input, true))
            : run(plan, choice.algorithm(), c.everyRank(), c.rank(), partial, input, Plan.NONE);
        partial.store(plan, 0, count, recv, done);
        return plan.start();
    }

    /** @return the algorithm among {@code ranks} ranks */
    private static Choice choose(Collectives c, int ranks, long bytes, long count, Reduction reduction) {
        boolean splits = reduction.splits() && reduction.commutative();
        int pof2 = Integer.highestOneBit(ranks);
        String forced = c.tuning().forced(Collective.ALLREDUCE);
        if (forced != null && !forced.equals(HostArea.ALGORITHM)) {
            String refused = forced.equals("recursive-doubling") ? null
                : !splits ? reduction.describe() + " is not a predefined operation"
                : count < ranks ? count + " elements are fewer than the " + ranks + " ranks" : null;
            if (refused == null) {
                return new Choice("MPI_Allreduce", forced, () -> Tuning.PREFIX + "allreduce=" + forced);
            }
            return new Choice("MPI_Allreduce", "recursive-doubling", () -> Tuning.PREFIX + "allreduce=" + forced
                + " refused: " + refused);
        }
        if (!splits) {
            return new Choice("MPI_Allreduce", "recursive-doubling", () -> reduction.describe()
                + " combines whole vectors only");
        }
        if (bytes <= DOUBLING_LIMIT || count < ranks) {
            return new Choice("MPI_Allreduce", "recursive-doubling", () -> bytes + " bytes <= " + DOUBLING_LIMIT
                + ": fewest rounds");
        }
        if (ranks == pof2) {
            return new Choice("MPI_Allreduce", "rabenseifner", () -> bytes + " bytes > " + DOUBLING_LIMIT
                + " among a power of two ranks: each rank moves and combines about 2 (n-1)/n of the vector");
        }
        return new Choice("MPI_Allreduce", "ring", () -> bytes + " bytes > " + DOUBLING_LIMIT + " among " + ranks
            + " ranks, not a power of two: blocks of 1/n round the ring");
    }

    /**
     * Every rank puts its data in its slot of {@code area}, and once every rank has, combines the
     * slots in rank order, the first into the partial result and each next one onto it: every rank
     * combines the same values in the same order, so all get the same result to the last bit, and
     * a non-commutative operation holds. A commutative one reads the slots where they lie.
     */
    private static void meet(HostArea area, Partial partial, Region input) {
        int parity = area.enter();
        area.put(parity, input);
        area.meet();
        area.get(parity, 0, partial.current().region());
        Operand spare = null;
        for (int r = 1; r < area.size(); r++) {
            Operand there = partial.reduction.commutative()
                ? area.operand(parity, r, partial.reduction, partial.map, partial.count) : null;
            if (there != null) {
                partial.absorbNow(there, false); // commutative: combined into the partial result where it is
            } else {
                spare = spare != null ? spare : partial.fresh();
                area.get(parity, r, spare.region());
                spare = partial.absorbNow(spare, false);
            }
        }
        area.finish();
    }

    /**
     * Adds {@code algorithm} among {@code members} (ranks of the communicator).
     *
     * @param me this rank's index in {@code members}
     * @param input this rank's data, not the result buffer, if the partial result does not hold it
     *     yet: the algorithms that split the vector load it as they combine; {@code null} if loaded
     * @return the step after which {@code partial} holds the whole result
     */
    static int run(Plan plan, String algorithm, int[] members, int me, Partial partial, Region input, int after) {
        return switch (algorithm) {
            case "rabenseifner" -> rabenseifner(plan, members, me, partial, input, after);
            case "ring" -> ring(plan, members, me, partial, input, after);
            default -> doubling(plan, members, me, partial, input == null ? after : partial.load(plan, input, after));
        };
    }

    /** The ranks of {@code members} beyond the largest power of two in it, paired with the ones below. */
    private record Fold(int pof2, int rest, int newRank) {

        static Fold of(int n, int me) {
            int pof2 = Integer.highestOneBit(n);
            int rest = n - pof2;
            int newRank = me < 2 * rest ? (me % 2 == 0 ? -1 : me / 2) : me - rest;
            return new Fold(pof2, rest, newRank);
        }

        /** @return the index in the members of the rank whose new rank is {@code r} */
        int member(int r) {
            return r < rest ? 2 * r + 1 : r + rest;
        }
    }

    /**
     * The first {@code 2r} members pair up: each even one sends its data to the odd one above,
     * which combines it (as lower ranks' data) and stands for both.
     *
     * @return the step after which the partial result is ready for the power-of-two part
     */
    private static int fold(Plan plan, int[] members, int me, Fold f, Partial partial, int after) {
        if (me >= 2 * f.rest()) {
            return after;
        }
        if (me % 2 == 0) {
            return plan.send(members[me + 1], partial.current().region(), after);
        }
        Operand in = partial.fresh();
        int received = plan.receive(members[me - 1], in.region());
        return partial.absorb(plan, in, true, received, after);
    }

    /** The odd ones of the first {@code 2r} send the even ones the result. */
    private static int unfold(Plan plan, int[] members, int me, Fold f, Partial partial, int after) {
        if (me >= 2 * f.rest()) {
            return after;
        }
        if (me % 2 == 1) {
            return plan.send(members[me - 1], partial.current().region(), after);
        }
        return plan.receive(members[me + 1], partial.current().region(), after);
    }

    /**
     * {@link #doubling(Plan, int[], int, Partial, int)} run now, message by message, for a blocking
     * call: the partial result is loaded from {@code input}, and holds the whole result after.
     */
    private static void doubling(Direct d, int[] members, int me, Partial partial, Region input, boolean inPlace) {
        try {
            partial.loadNow(input, inPlace);
            Fold f = Fold.of(members.length, me);
            boolean paired = me < 2 * f.rest();
            if (paired && me % 2 == 0) {
                // Stands aside for the power-of-two part: sends its data, then takes the result.
                d.send(members[me + 1], partial.current().region());
                d.receive(members[me + 1], partial.current().region());
                return;
            }
            Operand spare = partial.fresh();
            if (paired) {
                d.receive(members[me - 1], spare.region());
                spare = partial.absorbNow(spare, true);
            }
            for (int mask = 1; mask < f.pof2(); mask <<= 1) {
                int partner = f.member(f.newRank() ^ mask);
                d.exchange(members[partner], partial.current().region(), members[partner], spare.region());
                spare = partial.absorbNow(spare, partner < me);
            }
            if (paired) {
                d.send(members[me - 1], partial.current().region());
            }
        } catch (RuntimeException e) {
            throw Direct.failed(e);
        }
    }

    private static int doubling(Plan plan, int[] members, int me, Partial partial, int after) {
        Fold f = Fold.of(members.length, me);
        int done = fold(plan, members, me, f, partial, after);
        if (f.newRank() >= 0) {
            for (int mask = 1; mask < f.pof2(); mask <<= 1) {
                int partner = f.member(f.newRank() ^ mask);
                Operand in = partial.fresh();
                int sent = plan.send(members[partner], partial.current().region(), done);
                int received = plan.receive(members[partner], in.region());
                done = partial.absorb(plan, in, partner < me, sent, received, done);
            }
        }
        return unfold(plan, members, me, f, partial, done);
    }

    /** Element counts and displacements of {@code parts} nearly equal parts of {@code count} elements. */
    private record Blocks(long[] counts, long[] displs) {

        static Blocks of(long count, int parts) {
            long[] counts = new long[parts];
            long[] displs = new long[parts];
            for (int i = 0; i < parts; i++) {
                counts[i] = count / parts + (i < count % parts ? 1 : 0);
                displs[i] = i == 0 ? 0 : displs[i - 1] + counts[i - 1];
            }
            return new Blocks(counts, displs);
        }

        /** @return the elements of blocks {@code from} to {@code to - 1} */
        long span(int from, int to) {
            return from >= to ? 0 : displs[to - 1] + counts[to - 1] - displs[from];
        }
    }

    /**
     * The power-of-two part halves the vector's blocks recursively: in round {@code k} each rank
     * keeps the half of its window that bit {@code k} of its rank picks, sends the other half to
     * the partner whose rank differs in that bit, and combines what the partner sent for its own
     * half; once each rank holds one block's result, the rounds run backwards, each rank sending
     * its window and receiving its partner's, until every rank has every block.
     *
     * @param input this rank's data if the partial result does not hold it yet: then the first
     *     round sends the half it gives away straight from there and loads only the half it keeps,
     *     as it combines the partner's half with it (every other element of the result arrives in
     *     the second part); {@code null} if loaded
     */
    private static int rabenseifner(Plan plan, int[] members, int me, Partial partial, Region input, int after) {
        Fold f = Fold.of(members.length, me);
        if (input != null && f.rest() > 0) {
            after = partial.load(plan, input, after);
            input = null;
        }
        int done = fold(plan, members, me, f, partial, after);
        if (f.newRank() >= 0) {
            int pof2 = f.pof2();
            Blocks b = Blocks.of(partial.count, pof2);
            Operand in = partial.spare();
            Operand mine = partial.current();
            int rounds = Integer.numberOfTrailingZeros(pof2);
            int[] low = new int[rounds + 1];
            int[] high = new int[rounds + 1];
            low[0] = 0;
            high[0] = pof2;
            List<Integer> sends = new ArrayList<>();
            for (int k = 0; k < rounds; k++) {
                int partner = members[f.member(f.newRank() ^ 1 << k)];
                int mid = (low[k] + high[k]) / 2;
                boolean keepLow = (f.newRank() & 1 << k) == 0;
                low[k + 1] = keepLow ? low[k] : mid;
                high[k + 1] = keepLow ? mid : high[k];
                int sentFrom = keepLow ? mid : low[k];
                int sentTo = keepLow ? high[k] : mid;
                long first = b.displs()[low[k + 1]];
                long n = b.span(low[k + 1], high[k + 1]);
                long given = b.displs()[sentFrom];
                long givenCount = b.span(sentFrom, sentTo);
                if (k == 0 && input != null) {
                    sends.add(plan.sendByReference(partner, input.slice(given, givenCount), done));
                    done = partial.absorbArrivingOnto(plan, partner, in, input, first, n, done);
                } else {
                    sends.add(plan.sendByReference(partner, mine.slice(given, givenCount), done));
                    done = partial.absorbArriving(plan, partner, in, first, n, done, done);
                }
            }
            sends.add(done);
            done = plan.join(sends);
            for (int k = rounds - 1; k >= 0; k--) {
                int partner = members[f.member(f.newRank() ^ 1 << k)];
                int otherFrom = low[k + 1] == low[k] ? high[k + 1] : low[k];
                int otherTo = low[k + 1] == low[k] ? high[k] : low[k + 1];
                Region window = mine.slice(b.displs()[low[k + 1]], b.span(low[k + 1], high[k + 1]));
                int sent = plan.sendByReference(partner, window, done);
                int received = plan.receive(partner, mine.slice(b.displs()[otherFrom], b.span(otherFrom, otherTo)), done);
                done = plan.join(sent, received);
            }
        }
        return unfold(plan, members, me, f, partial, done);
    }

    /**
     * The reduce-scatter round the ring, then the allgather: in round {@code k} each rank sends
     * block {@code me - k} to the right and combines block {@code me - k - 1} from the left, so it
     * combines every block but its own once, and its own comes back whole in the allgather's first
     * round.
     *
     * @param input this rank's data if the partial result does not hold it yet: then its own block
     *     goes straight from there, and each block it combines is loaded as it combines; {@code null}
     *     if loaded
     */
    private static int ring(Plan plan, int[] members, int me, Partial partial, Region input, int after) {
        int n = members.length;
        int right = members[(me + 1) % n];
        int left = members[(me - 1 + n) % n];
        Blocks b = Blocks.of(partial.count, n);
        Operand in = partial.spare();
        Operand mine = partial.current();
        List<Integer> sends = new ArrayList<>();
        int done = after;
        for (int k = 0; k < n - 1; k++) {
            int out = Math.floorMod(me - k, n);
            int got = Math.floorMod(me - k - 1, n);
            Region block = k == 0 && input != null ? input.slice(b.displs()[out], b.counts()[out])
                : mine.slice(b.displs()[out], b.counts()[out]);
            sends.add(plan.sendByReference(right, block, done));
            done = input != null
                ? partial.absorbArrivingOnto(plan, left, in, input, b.displs()[got], b.counts()[got], done)
                : partial.absorbArriving(plan, left, in, b.displs()[got], b.counts()[got], Plan.NONE, done);
        }
        sends.add(done);
        int all = plan.join(sends);
        int have = all;
        int[] received = new int[n - 1];
        for (int k = 0; k < n - 1; k++) {
            int out = Math.floorMod(me + 1 - k, n);
            int got = Math.floorMod(me - k, n);
            plan.sendByReference(right, mine.slice(b.displs()[out], b.counts()[out]), have);
            have = plan.receive(left, mine.slice(b.displs()[got], b.counts()[got]), all);
            received[k] = have;
        }
        return plan.join(received);
    }
}
