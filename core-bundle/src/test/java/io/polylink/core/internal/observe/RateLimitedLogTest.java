package io.polylink.core.internal.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.testkit.LogCapture;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Within one interval (an hour here, so no clock decides the outcome). */
class RateLimitedLogTest {

    private static final String LOGGER = "io.polylink.core.test.ratelimit";
    /** What the log asked to run later: the lines that say what it held back. */
    private final List<Runnable> later = new ArrayList<>();
    private final List<Long> delays = new ArrayList<>();
    private final RateLimitedLog log = new RateLimitedLog(System.getLogger(LOGGER), TimeUnit.HOURS.toNanos(1),
        (task, delayMs) -> {
            later.add(task);
            delays.add(delayMs);
        });

    @Test
    void aKindLogsItsAllowanceThenHoldsBackAndOtherKindsHaveTheirOwn() {
        try (LogCapture lines = new LogCapture(LOGGER)) {
            for (int i = 0; i < 5; i++) {
                log.warn("lost", 3, "lost " + i, null);
                log.warn("bad frame", "bad " + i, null);
            }
            assertEquals(List.of("lost 0", "bad 0", "lost 1", "lost 2"), lines.lines());
        }
    }

    @Test
    void whatWasHeldBackIsSaidOnceTheIntervalEndsEvenIfNoLineOfTheKindFollows() {
        try (LogCapture lines = new LogCapture(LOGGER)) {
            for (int i = 0; i < 4; i++) {
                log.warn("bad frame", "bad " + i, null);
            }
            assertEquals(1, later.size(), "one summary asked for, however many lines were held back");
            long dueMs = TimeUnit.HOURS.toMillis(1);
            assertTrue(delays.get(0) > dueMs - 1000 && delays.get(0) <= dueMs + 1, "due when the interval ends, not "
                + delays.get(0) + " ms from now");

            later.get(0).run();

            assertEquals(List.of("bad 0", "bad frame: 3 more like it held back"), lines.lines());
        }
    }

    @Test
    void linesThatCountWhatWasLostAddUpWhatTheHeldBackOnesLost() {
        try (LogCapture lines = new LogCapture(LOGGER)) {
            log.warn("RSRs lost", 1, "flow 1: dropped 5 RSRs", 5, "RSRs");
            log.warn("RSRs lost", 1, "flow 2: dropped 7 RSRs", 7, "RSRs");
            log.warn("RSRs lost", 1, "flow 3: dropped 11 RSRs", 11, "RSRs");
            later.get(0).run();

            assertEquals(List.of("flow 1: dropped 5 RSRs", "RSRs lost: 2 more like it held back, 18 RSRs in them"),
                lines.lines());
        }
    }
}
