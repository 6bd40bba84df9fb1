package io.polylink.mpi.internal.request;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A listener runs exactly once, whether it is added before, after or while its operation completes. */
@Timeout(60)
class ListenerTest {

    private static final class Plain extends Operation {
        void finish() {
            complete(0, 0, 0, null);
        }
    }

    @Test
    void aListenerAddedBeforeOrAfterCompletionRunsOnce() {
        Plain before = new Plain();
        AtomicInteger runs = new AtomicInteger();
        before.whenDone(runs::incrementAndGet);
        assertEquals(0, runs.get(), "ran before completion");
        before.finish();
        assertEquals(1, runs.get());
        Plain after = new Plain();
        after.finish();
        after.whenDone(runs::incrementAndGet);
        assertEquals(2, runs.get());
    }

    /** One thread completes while another adds the listener, 50,000 times: never none, never twice. */
    @Test
    void aListenerAddedWhileItsOperationCompletesRunsExactlyOnce() throws Exception {
        int rounds = 50_000;
        Plain[] ops = new Plain[1];
        AtomicInteger[] runs = new AtomicInteger[1];
        CyclicBarrier start = new CyclicBarrier(2);
        CyclicBarrier end = new CyclicBarrier(2);
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread completer = new Thread(() -> {
            try {
                for (int i = 0; i < rounds; i++) {
                    start.await(10, TimeUnit.SECONDS);
                    ops[0].finish();
                    end.await(10, TimeUnit.SECONDS);
                }
            } catch (Throwable t) {
                failed.set(t);
            }
        }, "completer");
        completer.start();
        try {
            for (int i = 0; i < rounds; i++) {
                ops[0] = new Plain();
                runs[0] = new AtomicInteger();
                AtomicInteger count = runs[0];
                start.await(10, TimeUnit.SECONDS);
                ops[0].whenDone(count::incrementAndGet);
                end.await(10, TimeUnit.SECONDS);
                assertEquals(1, count.get(), "runs of the listener in round " + i);
            }
        } finally {
            completer.join(TimeUnit.SECONDS.toMillis(10));
        }
        assertEquals(null, failed.get());
    }
}
