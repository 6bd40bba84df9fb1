package io.polylink.testkit;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The CPU time some threads use over a window of wall-clock time, for tests of what an idle
 * component costs.
 *
 * @param share all the threads' CPU time over the window's length: 0.01 is 1% of one core
 * @param each each thread's name and percentage of a core, for the test's output
 */
public record ThreadCpu(double share, String each) {

    /** Waits out {@code window} and measures {@code threads} over it. */
    public static ThreadCpu measure(List<Thread> threads, Duration window) throws InterruptedException {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long[] before = threads.stream().mapToLong(t -> mx.getThreadCpuTime(t.getId())).toArray();
        long start = System.nanoTime();
        new CountDownLatch(1).await(window.toNanos(), TimeUnit.NANOSECONDS);
        long wall = System.nanoTime() - start;
        long cpu = 0;
        StringBuilder each = new StringBuilder();
        for (int i = 0; i < threads.size(); i++) {
            long used = mx.getThreadCpuTime(threads.get(i).getId()) - before[i];
            cpu += used;
            each.append(i == 0 ? "" : ", ")
                .append(String.format("%s %.3f%%", threads.get(i).getName(), 100.0 * used / wall));
        }
        return new ThreadCpu((double) cpu / wall, each.toString());
    }
}
