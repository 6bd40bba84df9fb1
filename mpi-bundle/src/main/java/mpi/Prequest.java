package mpi;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.comm.Communicator;
import io.polylink.mpi.internal.request.Operation;

/**
 * A persistent request ({@code MPI_SEND_INIT} and its kin): a communication's arguments, kept so
 * that {@link #start} can begin the same communication again and again. Inactive until started,
 * and inactive again once a wait or test completed it; {@link #free} ends it.
 */
public final class Prequest extends Request {

    /** Begins one communication of a persistent request. */
    @FunctionalInterface
    interface Starter {
        Operation start();
    }

    private final Starter starter;
    private volatile boolean freed;

    Prequest(Communicator comm, Starter starter) {
        super(null, comm);
        this.starter = starter;
    }

    @Override
    boolean reusable() {
        return !freed;
    }

    /**
     * Starts the communication ({@code MPI_START}); wait for it or test it as for any request.
     *
     * @throws MPIException {@code ERR_REQUEST} if it is active or was freed, or the error starting it
     */
    public void start() throws MPIException {
        MPI.check();
        try {
            if (freed) {
                throw new MpiError(ErrorClass.ERR_REQUEST, "the persistent request was freed");
            }
            if (operation() != null) {
                throw new MpiError(ErrorClass.ERR_REQUEST, "the persistent request is active; wait for it or test "
                    + "it before starting it again");
            }
            operation(starter.start());
        } catch (MpiError e) {
            throw Errors.raise(comm, e);
        }
    }

    /** Starts every request of {@code requests} ({@code MPI_STARTALL}). */
    public static void startAll(Prequest[] requests) throws MPIException {
        MPI.check();
        for (Prequest r : requests) {
            r.start();
        }
    }

    /** Frees the request; a communication it started still completes ({@code MPI_REQUEST_FREE}). */
    @Override
    public void free() throws MPIException {
        MPI.check();
        freed = true;
        operation(null);
    }
}
