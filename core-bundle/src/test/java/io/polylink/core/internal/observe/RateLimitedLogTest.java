package io.polylink.core.internal.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.polylink.testkit.LogCapture;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Within one interval (an hour here, so no clock decides the outcome). */
class RateLimitedLogTest {

    private static final String LOGGER = "io.polylink.core.test.ratelimit";
    private final RateLimitedLog log = new RateLimitedLog(System.getLogger(LOGGER), TimeUnit.HOURS.toNanos(1));

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
}
