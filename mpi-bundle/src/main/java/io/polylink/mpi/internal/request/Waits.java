package io.polylink.mpi.internal.request;

import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * Waiting for several operations: {@code MPI_Waitany}, {@code MPI_Waitsome} and
 * {@code MPI_Waitall}. A {@code null} entry is an inactive request and is skipped. While it waits
 * without parking, the waiting thread does the work the operations owe (a large send's data);
 * once it parks, it makes itself every pending operation's waiter, so whichever completes first
 * wakes it.
 */
public final class Waits {

    private static final Operation[] NONE = {};

    private Waits() {}

    /** @return the index of a completed operation, or -1 if every entry is {@code null} */
    public static int any(Operation[] ops, Idle idle) {
        if (allNull(ops)) {
            return -1;
        }
        return untilOneDone(ops, idle);
    }

    /** @return the indexes of the operations that completed, at least one; empty if every entry is {@code null} */
    public static int[] some(Operation[] ops, Idle idle) {
        if (allNull(ops)) {
            return new int[0];
        }
        untilOneDone(ops, idle);
        return allDone(ops);
    }

    /**
     * Blocks until one operation completed, attending the ones that may owe work, as
     * {@link #all} does.
     *
     * @return the index of the first completed one
     */
    private static int untilOneDone(Operation[] ops, Idle idle) {
        Operation[] owing = owing(ops);
        attend(owing, true);
        try {
            for (int attempt = 0; ; attempt++) {
                boolean worked = assist(owing);
                int i = firstDone(ops);
                if (i >= 0) {
                    return i;
                }
                if (!worked && !idle.pause(attempt)) {
                    if (!stopAttending(owing)) {
                        return parkUntilOneDone(ops);
                    }
                    attend(owing, true);
                }
            }
        } finally {
            attend(owing, false);
        }
    }

    /**
     * Blocks until every operation completed, attending the ones that may owe work: the data of
     * whichever send's receiver is clear goes from this thread, in any order. Each turn looks at
     * the first operation not yet complete only, as a wait for it alone would.
     */
    public static void all(Operation[] ops, Idle idle) {
        Operation[] owing = owing(ops);
        attend(owing, true);
        try {
            int first = 0;
            for (int attempt = 0; ; attempt++) {
                boolean worked = assist(owing);
                while (first < ops.length && (ops[first] == null || ops[first].isDone())) {
                    first++;
                }
                if (first == ops.length) {
                    return;
                }
                if (!worked && !idle.pause(attempt)) {
                    if (stopAttending(owing)) {
                        attend(owing, true);
                        continue;
                    }
                    for (int i = first; i < ops.length; i++) {
                        if (ops[i] != null) {
                            ops[i].parkUntilDone();
                        }
                    }
                    return;
                }
            }
        } finally {
            attend(owing, false);
        }
    }

    /**
     * @return the operations of {@code ops} that may owe work; by what they are, not by whether
     *     they completed, which may change between two looks
     */
    private static Operation[] owing(Operation[] ops) {
        int n = 0;
        for (Operation op : ops) {
            if (op != null && op.mayOwe()) {
                n++;
            }
        }
        if (n == 0) {
            return NONE;
        }
        Operation[] owing = new Operation[n];
        n = 0;
        for (Operation op : ops) {
            if (op != null && op.mayOwe()) {
                owing[n++] = op;
            }
        }
        return owing;
    }

    /** @return whether any of {@code owing} had work, which this thread did */
    private static boolean assist(Operation[] owing) {
        boolean worked = false;
        for (Operation op : owing) {
            worked |= op.assist();
        }
        return worked;
    }

    /**
     * Stops attending {@code owing}, then does the work offered to them before: work offered from
     * now on goes elsewhere, and work offered before would otherwise wait for this thread while it
     * parks, perhaps for an operation that needs that work done first.
     *
     * @return whether there was any
     */
    private static boolean stopAttending(Operation[] owing) {
        attend(owing, false);
        return assist(owing);
    }

    private static void attend(Operation[] ops, boolean busily) {
        for (Operation op : ops) {
            op.attend(busily);
        }
    }

    private static boolean anyFinishing(Operation[] ops) {
        for (Operation op : ops) {
            if (op != null && op.finishing()) {
                return true;
            }
        }
        return false;
    }

    /** @return the indexes of the completed operations, in order */
    public static int[] allDone(Operation[] ops) {
        int[] done = new int[ops.length];
        int n = 0;
        for (int i = 0; i < ops.length; i++) {
            if (ops[i] != null && ops[i].isDone()) {
                done[n++] = i;
            }
        }
        return Arrays.copyOf(done, n);
    }

    /** @return the index of the first completed operation, or -1 */
    public static int firstDone(Operation[] ops) {
        for (int i = 0; i < ops.length; i++) {
            if (ops[i] != null && ops[i].isDone()) {
                return i;
            }
        }
        return -1;
    }

    private static boolean allNull(Operation[] ops) {
        for (Operation op : ops) {
            if (op != null) {
                return false;
            }
        }
        return true;
    }

    /** @return the index of a completed operation, after parking until there is one */
    private static int parkUntilOneDone(Operation[] ops) {
        Thread me = Thread.currentThread();
        for (Operation op : ops) {
            if (op != null) {
                op.waitingThread(me);
            }
        }
        boolean interrupted = false;
        try {
            int i;
            for (int settling = 0; (i = firstDone(ops)) < 0; ) {
                if (anyFinishing(ops)) {
                    Operation.settle(settling++);
                    continue;
                }
                LockSupport.park(ops);
                interrupted |= Thread.interrupted();
            }
            return i;
        } finally {
            for (Operation op : ops) {
                if (op != null) {
                    op.waitingThread(null);
                }
            }
            if (interrupted) {
                me.interrupt();
            }
        }
    }
}
