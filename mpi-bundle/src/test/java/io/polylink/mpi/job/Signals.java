package io.polylink.mpi.job;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Signals between the ranks of one job that bypass MPI, for tests that must show something
 * happened while a rank made no MPI call. Named per job, so jobs never see each other's.
 */
public final class Signals {

    private static final Map<String, CountDownLatch> LATCHES = new ConcurrentHashMap<>();

    private Signals() {}

    private static CountDownLatch latch(String name) {
        if (!(Thread.currentThread().getContextClassLoader() instanceof RankClassLoader r)) {
            throw new IllegalStateException("signals are for the threads of a job's ranks");
        }
        return latch(r.environment().get("POLYLINK_MPI_JOB"), name);
    }

    private static CountDownLatch latch(String job, String name) {
        return LATCHES.computeIfAbsent(job + "/" + name, k -> new CountDownLatch(1));
    }

    /** Raises {@code name} for the calling rank's job. */
    public static void raise(String name) {
        latch(name).countDown();
    }

    /** @return whether {@code name} was raised */
    public static boolean raised(String name) {
        return latch(name).getCount() == 0;
    }

    /**
     * Waits until {@code name} is raised.
     *
     * @throws AssertionError if it is not raised within {@code limit}
     */
    public static void await(String name, Duration limit) throws InterruptedException {
        if (!latch(name).await(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("signal '" + name + "' was not raised within " + limit);
        }
    }

    /** Raises {@code name} for {@code job}, from a thread outside the job. */
    static void raise(String job, String name) {
        latch(job, name).countDown();
    }

    /** Waits, on a thread outside the job, until {@code name} is raised for {@code job}. */
    static void await(String job, String name, Duration limit) throws InterruptedException {
        if (!latch(job, name).await(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("signal '" + name + "' was not raised within " + limit);
        }
    }

    /** Forgets the signals of {@code job}. */
    static void forget(String job) {
        LATCHES.keySet().removeIf(k -> k.startsWith(job + "/"));
    }
}
