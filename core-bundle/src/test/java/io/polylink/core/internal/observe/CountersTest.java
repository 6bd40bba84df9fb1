package io.polylink.core.internal.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.polylink.Statistics;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Counters stay exact however many threads count at once, owners of a cell or not. */
class CountersTest {

    private static final int PER_THREAD = 200_000;

    @Test
    void countsFromMoreThreadsThanCellsAddUpExactly() throws Exception {
        Counters counters = new Counters();
        int threads = 3 * Counters.OWNED;
        CyclicBarrier start = new CyclicBarrier(threads);
        AtomicReference<Throwable> failed = new AtomicReference<>();
        List<Thread> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int bytes = t + 1;
            Thread thread = new Thread(() -> {
                try {
                    start.await(10, TimeUnit.SECONDS);
                    for (int i = 0; i < PER_THREAD; i++) {
                        counters.sent(bytes);
                        counters.received(2 * bytes);
                        if (i % 1000 == 0) {
                            counters.error();
                        }
                    }
                } catch (Throwable e) {
                    failed.compareAndSet(null, e);
                }
            }, "polylink-test-counter-" + t);
            thread.start();
            all.add(thread);
        }
        for (Thread thread : all) {
            thread.join(TimeUnit.SECONDS.toMillis(60));
            assertFalse(thread.isAlive(), thread.getName() + " still counting after 60 s");
        }
        if (failed.get() != null) {
            throw new AssertionError("a counting thread failed", failed.get());
        }
        long bytesPerRound = (long) threads * (threads + 1) / 2;
        long messages = (long) threads * PER_THREAD;
        assertEquals(new Statistics(messages, bytesPerRound * PER_THREAD, messages, 2 * bytesPerRound * PER_THREAD,
            (long) threads * (PER_THREAD / 1000)), counters.snapshot());
    }

    @Test
    void aSnapshotSeesWhatAnotherThreadCountedBeforeItWasJoined() throws Exception {
        Counters counters = new Counters();
        Thread owner = new Thread(() -> {
            counters.sent(10);
            counters.received(7);
        }, "polylink-test-counter-owner");
        owner.start();
        owner.join(TimeUnit.SECONDS.toMillis(10));
        assertFalse(owner.isAlive(), "the counting thread did not end within 10 s");
        counters.sent(5);
        assertEquals(new Statistics(2, 15, 1, 7, 0), counters.snapshot());
    }
}
