package io.polylink.mpi.internal.boot;

/**
 * Ends a rank whose initializing thread ended without {@code MPI.Finalize}. MPI has the thread
 * that initialized MPI finalize it; a Java rank whose main method threw, or returned early, would
 * otherwise live on, held by its runtime's threads, while the other ranks wait for it. Runs the
 * thread {@code polylink-mpi-main-watch}, which waits for that thread to end.
 */
final class MainWatch {

    private final Thread watched;
    private final Runnable ended;
    private final Thread thread;
    private volatile boolean stopped;

    /** @param ended what to do if {@code watched} ends before {@link #stop()} */
    MainWatch(Thread watched, Runnable ended) {
        this.watched = watched;
        this.ended = ended;
        this.thread = new Thread(this::run, "polylink-mpi-main-watch");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    private void run() {
        try {
            watched.join();
        } catch (InterruptedException stoppedWatching) {
            return;
        }
        if (!stopped) {
            ended.run();
        }
    }

    /** Stops watching; the thread ends at once. */
    void stop() {
        stopped = true;
        thread.interrupt();
    }
}
