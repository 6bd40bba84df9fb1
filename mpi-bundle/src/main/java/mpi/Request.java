package mpi;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.comm.Communicator;
import io.polylink.mpi.internal.request.Operation;
import io.polylink.mpi.internal.request.Waits;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A non-blocking communication ({@code MPI_Request}). It is active from the call that started it
 * until a wait or a successful test; then it becomes inactive, and a request that is not
 * persistent becomes {@link MPI#REQUEST_NULL} ({@link #isNull} holds). A wait on an inactive
 * request returns an empty status at once.
 *
 * <p>An error the communication ended with is raised through its communicator's error handler
 * when the request is waited for or tested. Thread-safe, but one request is waited for by one
 * thread at a time, as MPI requires.
 */
public class Request implements Freeable {

    private volatile Operation op;
    /** The communicator whose error handler the communication's error goes to. */
    final Communicator comm;

    /** {@link MPI#REQUEST_NULL}. */
    Request() {
        this(null, null);
    }

    Request(Operation op, Communicator comm) {
        this.op = op;
        this.comm = comm;
        goesOn(op);
    }

    /**
     * The application goes back to its own work while {@code started} runs: the methods' own
     * threads receive from now on, so it progresses meanwhile, with no MPI call (see
     * docs/mpi.md#progress).
     */
    private static void goesOn(Operation started) {
        if (started != null && !started.isDone()) {
            MPI.idle().handBack();
        }
    }

    Operation operation() {
        return op;
    }

    void operation(Operation started) {
        op = started;
        goesOn(started);
    }

    /** @return whether the request may still be started again: only persistent ones, until freed */
    boolean reusable() {
        return false;
    }

    /**
     * Forgets the request ({@code MPI_REQUEST_FREE}); an active communication still completes.
     */
    @Override
    public void free() throws MPIException {
        if (!isNull()) {
            MPI.check();
            op = null;
        }
    }

    /**
     * Asks to cancel the communication ({@code MPI_CANCEL}). A receive nothing matched yet is
     * cancelled, and its status says so; sends are not cancelled and complete as they would have.
     */
    public final void cancel() throws MPIException {
        MPI.check();
        Operation o = op;
        if (o != null) {
            o.cancel();
        }
    }

    /** @return whether this is {@link MPI#REQUEST_NULL}: inactive and not persistent */
    public final boolean isNull() {
        return op == null && !reusable();
    }

    /**
     * Waits for the communication to complete ({@code MPI_WAIT}); the request becomes inactive.
     *
     * @return its status
     * @throws MPIException the error it ended with, through its communicator's error handler
     */
    public final Status waitStatus() throws MPIException {
        MPI.check();
        Operation o = op;
        if (o == null) {
            return Status.empty(0);
        }
        o.await(MPI.idle());
        return finish(o, 0);
    }

    /** Waits as {@link #waitStatus} does, without the status. */
    public final void waitFor() throws MPIException {
        waitStatus();
    }

    /**
     * @return the status if the communication completed, the request then inactive; else {@code null}
     *     ({@code MPI_TEST})
     */
    public final Status testStatus() throws MPIException {
        MPI.check();
        Operation o = op;
        if (o == null) {
            return Status.empty(0);
        }
        if (!o.isDone()) {
            MPI.idle().receiveOnce();
        }
        return o.isDone() ? finish(o, 0) : null;
    }

    /**
     * @return the status if the communication completed, else {@code null}; the request stays as it is
     *     ({@code MPI_REQUEST_GET_STATUS})
     */
    public final Status getStatus() throws MPIException {
        MPI.check();
        Operation o = op;
        if (o == null) {
            return Status.empty(0);
        }
        return o.isDone() ? Status.of(o) : null;
    }

    /** @return whether the communication completed, the request then inactive ({@code MPI_TEST}) */
    public final boolean test() throws MPIException {
        return testStatus() != null;
    }

    /**
     * Waits until one of the active requests completed ({@code MPI_WAITANY}); it becomes inactive.
     *
     * @return its status, whose {@link Status#getIndex} says which; {@link MPI#UNDEFINED} as the
     *     index if none was active
     */
    public static Status waitAnyStatus(Request[] requests) throws MPIException {
        MPI.check();
        Operation[] ops = operations(requests);
        int i = Waits.any(ops, MPI.idle());
        if (i < 0) {
            return Status.empty(MPI.UNDEFINED);
        }
        return requests[i].finish(ops[i], i);
    }

    /** @return the index of the request that completed, or {@link MPI#UNDEFINED} if none was active ({@code MPI_WAITANY}) */
    public static int waitAny(Request[] requests) throws MPIException {
        return waitAnyStatus(requests).getIndex();
    }

    /**
     * @return the status of an active request that completed, which becomes inactive; {@code null}
     *     if none did; an empty status of index {@link MPI#UNDEFINED} if none was active ({@code MPI_TESTANY})
     */
    public static Status testAnyStatus(Request[] requests) throws MPIException {
        MPI.check();
        Operation[] ops = operations(requests);
        if (Arrays.stream(ops).allMatch(o -> o == null)) {
            return Status.empty(MPI.UNDEFINED);
        }
        int i = Waits.firstDone(ops);
        if (i < 0) {
            MPI.idle().receiveOnce();
            i = Waits.firstDone(ops);
        }
        return i < 0 ? null : requests[i].finish(ops[i], i);
    }

    /** @return the index of a request that completed, or {@link MPI#UNDEFINED} ({@code MPI_TESTANY}) */
    public static int testAny(Request[] requests) throws MPIException {
        Status s = testAnyStatus(requests);
        return s == null ? MPI.UNDEFINED : s.getIndex();
    }

    /**
     * Waits for every active request ({@code MPI_WAITALL}); all become inactive.
     *
     * @return a status per request, empty for those that were inactive
     * @throws MPIException {@code ERR_IN_STATUS} naming each request that failed
     */
    public static Status[] waitAllStatus(Request[] requests) throws MPIException {
        MPI.check();
        Operation[] ops = operations(requests);
        Waits.all(ops, MPI.idle());
        return finishAll(requests, ops);
    }

    /** Waits as {@link #waitAllStatus} does, without the statuses. */
    public static void waitAll(Request[] requests) throws MPIException {
        waitAllStatus(requests);
    }

    /**
     * @return a status per request if every active one completed, all then inactive; else
     *     {@code null}, nothing changed ({@code MPI_TESTALL})
     */
    public static Status[] testAllStatus(Request[] requests) throws MPIException {
        MPI.check();
        Operation[] ops = operations(requests);
        MPI.idle().receiveOnce();
        for (Operation o : ops) {
            if (o != null && !o.isDone()) {
                return null;
            }
        }
        return finishAll(requests, ops);
    }

    /** @return whether every active request completed, all then inactive ({@code MPI_TESTALL}) */
    public static boolean testAll(Request[] requests) throws MPIException {
        return testAllStatus(requests) != null;
    }

    /**
     * Waits until at least one active request completed ({@code MPI_WAITSOME}); those that did become inactive.
     *
     * @return their statuses, with their indexes; {@code null} if none was active
     */
    public static Status[] waitSomeStatus(Request[] requests) throws MPIException {
        MPI.check();
        Operation[] ops = operations(requests);
        int[] done = Waits.some(ops, MPI.idle());
        return done.length == 0 ? null : finishSome(requests, ops, done);
    }

    /** @return the indexes of the requests that completed, or {@code null} if none was active ({@code MPI_WAITSOME}) */
    public static int[] waitSome(Request[] requests) throws MPIException {
        return indexes(waitSomeStatus(requests));
    }

    /**
     * @return the statuses of the active requests that completed, now inactive: none if none did;
     *     {@code null} if none was active ({@code MPI_TESTSOME})
     */
    public static Status[] testSomeStatus(Request[] requests) throws MPIException {
        MPI.check();
        Operation[] ops = operations(requests);
        if (Arrays.stream(ops).allMatch(o -> o == null)) {
            return null;
        }
        MPI.idle().receiveOnce();
        return finishSome(requests, ops, Waits.allDone(ops));
    }

    /** @return the indexes of the requests that completed; see {@link #testSomeStatus} ({@code MPI_TESTSOME}) */
    public static int[] testSome(Request[] requests) throws MPIException {
        return indexes(testSomeStatus(requests));
    }

    private static Operation[] operations(Request[] requests) {
        Operation[] ops = new Operation[requests.length];
        for (int i = 0; i < requests.length; i++) {
            ops[i] = requests[i] == null ? null : requests[i].op;
        }
        return ops;
    }

    private Status finish(Operation o, int index) throws MPIException {
        op = null;
        if (o.error() != null) {
            throw Errors.raise(comm, o.error());
        }
        return Status.of(o, index);
    }

    private static Status[] finishAll(Request[] requests, Operation[] ops) throws MPIException {
        Status[] statuses = new Status[ops.length];
        for (int i = 0; i < ops.length; i++) {
            if (ops[i] == null) {
                statuses[i] = Status.empty(i);
            } else {
                requests[i].op = null;
                statuses[i] = Status.of(ops[i], i);
            }
        }
        failIfAny(requests, ops, indexesOf(ops));
        return statuses;
    }

    private static Status[] finishSome(Request[] requests, Operation[] ops, int[] done) throws MPIException {
        Status[] statuses = new Status[done.length];
        for (int j = 0; j < done.length; j++) {
            int i = done[j];
            requests[i].op = null;
            statuses[j] = Status.of(ops[i], i);
        }
        failIfAny(requests, ops, done);
        return statuses;
    }

    private static int[] indexesOf(Operation[] ops) {
        int[] all = new int[ops.length];
        Arrays.setAll(all, i -> i);
        return all;
    }

    /** Raises {@code ERR_IN_STATUS} naming every request among {@code which} that ended with an error. */
    private static void failIfAny(Request[] requests, Operation[] ops, int[] which) throws MPIException {
        List<String> failures = new ArrayList<>();
        Communicator first = null;
        for (int i : which) {
            if (ops[i] != null && ops[i].error() != null) {
                failures.add("request " + i + ": " + ops[i].error().getMessage());
                if (first == null) {
                    first = requests[i].comm;
                }
            }
        }
        if (!failures.isEmpty()) {
            throw Errors.raise(first, new MpiError(ErrorClass.ERR_IN_STATUS, failures.size() + " of " + which.length
                + " requests ended with an error (each status's getError() has its class): " + String.join("; ", failures)));
        }
    }

    private static int[] indexes(Status[] statuses) {
        if (statuses == null) {
            return null;
        }
        int[] idx = new int[statuses.length];
        for (int i = 0; i < idx.length; i++) {
            idx[i] = statuses[i].getIndex();
        }
        return idx;
    }
}
