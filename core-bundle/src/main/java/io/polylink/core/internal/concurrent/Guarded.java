package io.polylink.core.internal.concurrent;

import io.polylink.core.internal.observe.Problems;

/**
 * Runs a task of the context's own threads so that nothing it throws ends the thread: what the
 * task's own handling let through is reported, and the thread goes on with the next task. The
 * parts that schedule tasks close or abandon what failed (a channel, a flow) themselves; this is
 * the last line, for what they did not foresee.
 */
final class Guarded implements Runnable {

    private final Runnable task;
    private final Problems problems;

    private Guarded(Runnable task, Problems problems) {
        this.task = task;
        this.problems = problems;
    }

    static Runnable of(Runnable task, Problems problems) {
        return new Guarded(task, problems);
    }

    @Override
    public void run() {
        try {
            task.run();
        } catch (Throwable t) {
            problems.error("task failed", Thread.currentThread().getName() + ": a task threw " + t
                + "; the thread goes on with the next", t);
        }
    }
}
