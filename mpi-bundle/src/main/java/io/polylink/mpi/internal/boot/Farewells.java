package io.polylink.mpi.internal.boot;

import io.polylink.mpi.internal.wire.Header;
import java.time.Duration;
import java.util.BitSet;

/**
 * The FIN and BYE messages of {@code MPI.Finalize}, counted as they arrive (a FIN may come long
 * before this rank finalizes). A rank sends FIN to all and waits for everyone's FIN: then every
 * message any rank sent before its FIN has arrived wherever it went, since each link delivers in
 * order. It then sends BYE and waits for everyone's, so that it closes its context only once the
 * others have its FIN; the wait for BYE is bounded, because a BYE lost in a closing context keeps
 * no one from finishing. Thread-safe.
 */
final class Farewells {

    private final int size;
    private final int self;
    private final BitSet fins = new BitSet();
    private final BitSet byes = new BitSet();

    Farewells(int size, int self) {
        this.size = size;
        this.self = self;
    }

    /** Notes a FIN or BYE from {@code rank}; others and repeats are ignored. */
    synchronized void arrived(int kind, int rank) {
        if (rank < 0 || rank >= size || rank == self) {
            return;
        }
        (kind == Header.FIN ? fins : byes).set(rank);
        notifyAll();
    }

    /**
     * Blocks until every other rank's FIN arrived, or {@code stop} says to give up; whoever makes
     * {@code stop} hold calls {@link #wake} after.
     */
    synchronized void awaitFins(java.util.function.BooleanSupplier stop) throws InterruptedException {
        while (fins.cardinality() < size - 1 && !stop.getAsBoolean()) {
            wait();
        }
    }

    /** @return whether every other rank's BYE arrived within {@code limit} */
    synchronized boolean awaitByes(Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (byes.cardinality() < size - 1) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return true;
    }

    /** @return whether rank {@code rank}'s FIN arrived: it sends nothing more */
    synchronized boolean finished(int rank) {
        return fins.get(rank);
    }

    /** @return the lowest rank but this one whose FIN did not arrive and that {@code lost} holds, or -1 */
    synchronized int lostBeforeFin(java.util.function.IntPredicate lost) {
        for (int r = 0; r < size; r++) {
            if (r != self && !fins.get(r) && lost.test(r)) {
                return r;
            }
        }
        return -1;
    }

    /** Wakes the waiters, to look at their stop condition again. */
    synchronized void wake() {
        notifyAll();
    }
}
