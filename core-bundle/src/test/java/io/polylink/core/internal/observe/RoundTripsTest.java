package io.polylink.core.internal.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RoundTripsTest {

    @Test
    void percentilesAreWithinOnePartInSixtyFourAtEveryScale() {
        for (long scale : new long[] {1_000, 80_000, 3_000_000, 2_000_000_000L}) {
            RoundTrips trips = new RoundTrips();
            for (long i = 1; i <= 1000; i++) {
                trips.record(scale * i / 1000);
            }
            RoundTrips.Snapshot s = trips.snapshot();
            assertEquals(1000, s.count());
            assertNear(scale / 2, s.p50Nanos());
            assertNear(scale * 99 / 100, s.p99Nanos());
            assertNear(scale, s.maxNanos());
        }
    }

    @Test
    void smallValuesAreExactAndHugeOnesCountAsTheTop() {
        RoundTrips trips = new RoundTrips();
        trips.record(-5);
        trips.record(7);
        trips.record(TimeUnit.DAYS.toNanos(1));
        RoundTrips.Snapshot s = trips.snapshot();
        assertEquals(3, s.count());
        assertEquals(7, s.p50Nanos());
        assertNear(1L << 40, s.maxNanos());
    }

    @Test
    void linksCombineAndAnEmptyOneSaysSo() {
        RoundTrips a = new RoundTrips();
        RoundTrips b = new RoundTrips();
        RoundTrips none = new RoundTrips();
        a.record(100_000);
        b.record(300_000);
        b.record(300_000);

        RoundTrips.Snapshot both = RoundTrips.combined(List.of(a, b, none));
        assertEquals(3, both.count());
        assertNear(300_000, both.p50Nanos());
        assertEquals("no round trip timed yet", none.snapshot().toString());
        assertEquals("-", none.snapshot().p99());
        assertTrue(both.toString().matches("p50 \\d+ us, p99 \\d+ us over 3 round trips"), both::toString);
    }

    private static void assertNear(long expected, long actual) {
        assertTrue(Math.abs(actual - expected) <= expected / 64 + 1, () -> actual + " is not within 1/64 of " + expected);
    }
}
