package io.polylink.bench.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.testkit.Await;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The core round-trip benchmark measures what it says: each call is one ping and its pong, whole. */
class CoreRoundTripTest {

    @Test
    void eachCallSendsAPingAndHasItsPongBackBeforeReturning() {
        CoreRoundTrip benchmark = new CoreRoundTrip();
        benchmark.size = 256;
        benchmark.open(); // fails unless the first pong came back, over the same-thread method
        try {
            for (long pongs = 2; pongs <= 1000; pongs++) {
                assertEquals(pongs, benchmark.polylink(), "pongs after as many pings");
                assertEquals(pongs - 1, benchmark.baseline(), "the floor's pongs after as many pings");
            }
            for (long pongs = 1001; pongs <= 2000; pongs++) {
                assertEquals(pongs, benchmark.replyToCarried(), "pongs after as many pings carrying their startpoint");
            }
        } finally {
            benchmark.close();
        }
        Await.noThreads("polylink-");
    }

    /**
     * Two contexts' steady ping-pong, acknowledgements included, allocates nothing. Five windows of
     * 100,000 round trips are measured and the median judged: the JIT's first compilations and
     * deoptimisations (which put scalar-replaced objects on the heap) and the quiet-flow check each
     * flow schedules once a second allocate now and then, but never per round trip, and an
     * allocation per acknowledgement (one per 64 RSRs) would show as some 150 KB a window.
     */
    @Test
    void aSteadyRoundTripAllocatesNothing() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long self = Thread.currentThread().getId();
        CoreRoundTrip benchmark = new CoreRoundTrip();
        benchmark.size = 256;
        benchmark.open();
        long[] windows = new long[5];
        try {
            for (int i = 0; i < 20_000; i++) {
                benchmark.polylink(); // spare copies, queues at their working size, first compilations
            }
            for (int w = 0; w < windows.length; w++) {
                long before = threads.getThreadAllocatedBytes(self);
                for (int i = 0; i < 100_000; i++) {
                    benchmark.polylink();
                }
                windows[w] = threads.getThreadAllocatedBytes(self) - before;
            }
        } finally {
            benchmark.close();
        }
        long[] sorted = windows.clone();
        Arrays.sort(sorted);
        assertTrue(sorted[2] <= 1024, "bytes allocated per 100,000 round trips, window by window: "
            + Arrays.toString(windows) + "; a steady round trip must allocate nothing");
        Await.noThreads("polylink-");
    }
}
