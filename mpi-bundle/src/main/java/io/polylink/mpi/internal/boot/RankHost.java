package io.polylink.mpi.internal.boot;

import io.polylink.Context;
import java.util.Map;

/**
 * What a rank runs in: the launcher's environment, the Polylink context the rank's messages go
 * through, and how the rank's process ends. {@code MPI.Init} finds one through
 * {@link java.util.ServiceLoader} and uses it for one rank, from {@link #open} to {@link #close}.
 */
public interface RankHost {

    /** @return the variables the launcher set for this rank; a process's own environment by default */
    default Map<String, String> environment() {
        return System.getenv();
    }

    /**
     * Opens the context this rank sends and receives through, with {@code settings}'s naming
     * registry as the one it publishes in and looks up from.
     *
     * @throws Exception naming what could not be set up
     */
    Context open(LaunchSettings settings) throws Exception;

    /** Closes the context {@link #open} returned, and everything it made. */
    void close();

    /**
     * Starts ending this rank's process with {@code status}, as {@code MPI_Abort} and fatal errors
     * do, and returns. By default the JVM exits, from a thread of its own so that the caller
     * (perhaps an I/O thread the exit waits for) is not the one exiting. A host running ranks as
     * threads may do nothing; the rank's later calls then fail.
     */
    default void exit(int status) {
        Thread exit = new Thread(() -> System.exit(status), "polylink-mpi-exit");
        exit.start();
    }

    /**
     * Waits until the end {@link #exit} started, if one did and the calling thread is the
     * application's: it then does not run on, and report as an exception the error that ended the
     * job. A runtime thread returns, since the end waits for it. By default it returns.
     */
    default void awaitExit() {
    }
}
