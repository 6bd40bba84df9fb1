package io.polylink.plogp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.spi.PeerLocation;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class LinkModelTest {

    static LinkModel model(PeerLocation location, String stack, double latency) {
        return new LinkModel(location, stack, latency, List.of(
            new SizeParameters(0, 0.5, 0.25, 1.0, 3.0),
            new SizeParameters(1024, 1.5, 1.25, 3.0, 8.0),
            new SizeParameters(4096, 3.5, 2.25, 9.0, 20.0)), Instant.parse("2026-11-30T06:30:00Z"), "a - b");
    }

    @Test
    void parametersAreLinearBetweenMeasuredSizesAndGoOnAsTheLastTwoBeyond() {
        LinkModel m = model(PeerLocation.SAME_HOST, "shm", 0.5);
        assertEquals(1.0, m.gap(0));
        assertEquals(3.0, m.gap(1024));
        assertEquals(2.0, m.gap(512));
        assertEquals(6.0, m.gap(2560));
        assertEquals(15.0, m.gap(4096 + 3072), "beyond the largest: 6 µs more per 3 KiB, as between the last two");
        assertEquals(1.0, m.sendOverhead(512));
        assertEquals(0.75, m.receiveOverhead(512));
        assertEquals(0.5 + 2.0, m.messageTime(512), "L + g(m)");
    }

    @Test
    void belowTheSmallestSizeAParameterKeepsItsValueAndFallsNeverBelowNothing() {
        LinkModel m = new LinkModel(PeerLocation.OTHER_SITE, "lz4/tcp", 10, List.of(
            new SizeParameters(64, 2, 2, 5, 30), new SizeParameters(128, 1, 1, 1, 25)), Instant.EPOCH, "");
        assertEquals(5, m.gap(1));
        assertEquals(0, m.gap(1 << 20), "falling between the last two sizes, it stops at 0");
        assertThrows(IllegalArgumentException.class, () -> m.gap(-1));
    }

    @Test
    void aModelRefusesWhatIsNotOneSayingWhat() {
        List<SizeParameters> one = List.of(new SizeParameters(0, 1, 1, 1, 1));
        Instant t = Instant.EPOCH;
        assertMessage("within one", () -> new LinkModel(PeerLocation.SAME_CONTEXT, "shm", 1, one, t, ""));
        assertMessage("not a method stack", () -> new LinkModel(PeerLocation.SAME_HOST, "TCP/", 1, one, t, ""));
        assertMessage("L must be a finite time", () -> new LinkModel(PeerLocation.SAME_HOST, "tcp", -1, one, t, ""));
        assertMessage("1 to 64 sizes", () -> new LinkModel(PeerLocation.SAME_HOST, "tcp", 1, List.of(), t, ""));
        assertMessage("must increase", () -> new LinkModel(PeerLocation.SAME_HOST, "tcp", 1,
            List.of(new SizeParameters(8, 1, 1, 1, 1), new SizeParameters(8, 1, 1, 1, 1)), t, ""));
        assertMessage("without tabs", () -> new LinkModel(PeerLocation.SAME_HOST, "tcp", 1, one, t, "a\tb"));
        assertMessage("g must be a finite time", () -> new SizeParameters(1, 1, 1, Double.NaN, 1));
        assertMessage("cannot be negative", () -> new SizeParameters(-1, 1, 1, 1, 1));
    }

    static void assertMessage(String part, org.junit.jupiter.api.function.Executable bad) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, bad);
        assertTrue(e.getMessage().contains(part), () -> "'" + e.getMessage() + "' does not say '" + part + "'");
    }
}
