package io.polylink.policy.plogp.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Descriptor;
import io.polylink.plogp.LinkModel;
import io.polylink.plogp.SizeParameters;
import io.polylink.policy.plogp.internal.CostModel.Candidate;
import io.polylink.spi.PeerLocation;
import io.polylink.spi.SelectionRequest.Sizes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CostModelTest {

    /** A link of latency {@code l} µs whose gap is {@code fixed + perByte × m} µs, measured at powers of two to 4 MiB. */
    static LinkModel link(String stack, double l, double fixed, double perByte) {
        return link(PeerLocation.OTHER_SITE, stack, l, fixed, perByte);
    }

    static LinkModel link(PeerLocation location, String stack, double l, double fixed, double perByte) {
        List<SizeParameters> sizes = new ArrayList<>();
        for (long m = 1; m <= 4 << 20; m *= 2) {
            double g = fixed + perByte * m;
            sizes.add(new SizeParameters(m, g / 2, g / 2, g, 2 * (l + g)));
        }
        return new LinkModel(location, stack, l, sizes, Instant.parse("2026-11-30T09:00:00Z"), "a b");
    }

    private static Candidate candidate(int index, LinkModel model) {
        return new Candidate(index, new Descriptor(model.stack(), new byte[] {1}), model);
    }

    @Test
    void sizesAreCutWhereAnotherStackBecomesFasterByTheMargin() {
        // 1 MB/s against a transform that costs 200 µs and then sends a quarter of the bytes
        Candidate tcp = candidate(1, link("tcp", 10_000, 0, 1.0));
        Candidate lz4 = candidate(2, link("lz4/tcp", 10_000, 200, 0.25));
        CostModel costs = new CostModel(List.of(tcp, lz4), 0.05);

        int[] starts = costs.starts();
        assertEquals(1, starts.length);
        int cut = starts[0];
        assertTrue(lz4.time(cut) * 1.05 <= tcp.time(cut) && lz4.time(cut - 1) * 1.05 > tcp.time(cut - 1),
            "the cut is the first size where lz4/tcp wins by 5%: " + cut);
        assertEquals(tcp, costs.fastest(new Sizes(0, cut - 1)));
        assertEquals(lz4, costs.fastest(new Sizes(cut, Integer.MAX_VALUE)));
        assertEquals(lz4, costs.fastest(Sizes.ALL), "behind the fastest least over all measured sizes");
        assertEquals("tcp below " + cut + " B, lz4/tcp from " + cut + " B", costs.classes());
    }

    @Test
    void aStackFasterAtEverySizeMakesOneClass() {
        Candidate shm = candidate(1, link("shm", 1, 0, 0.001));
        Candidate tcp = candidate(2, link("tcp", 20, 2, 0.01));
        CostModel costs = new CostModel(List.of(tcp, shm), 0.05);
        assertArrayEquals(new int[0], costs.starts());
        assertEquals(shm, costs.fastest(Sizes.ALL));
        assertEquals("shm for every size", costs.classes());
    }

    @Test
    void stacksWithinTheMarginOfEachOtherDoNotAlternate() {
        Candidate a = candidate(1, link("tcp", 100, 10, 0.010));
        Candidate b = candidate(2, link("udp", 100, 9, 0.0101)); // a hair faster small, a hair slower large
        assertArrayEquals(new int[0], new CostModel(List.of(a, b), 0.05).starts());
        assertEquals(1, new CostModel(List.of(a, b), 0).starts().length, "without a margin they do");
    }
}
