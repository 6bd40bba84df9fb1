package io.polylink.mpi.internal.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Staged chunks come back when their loans end, empty, and no more of them are kept than the pool keeps. */
class StagingTest {

    @Test
    void aBufferBackFromItsLoanIsTakenAgainEmpty() {
        Staging staging = new Staging(64, 2);
        ByteBuffer first = staging.take();
        assertTrue(first.isDirect());
        assertEquals(64, first.remaining());
        first.putLong(42).flip();
        staging.back(first).run();
        ByteBuffer again = staging.take();
        assertSame(first, again, "the buffer given back");
        assertEquals(0, again.position());
        assertEquals(64, again.limit(), "cleared, whatever its last chunk left");
        assertNotSame(again, staging.take(), "a buffer still out is not handed out twice");
    }

    @Test
    void buffersBeyondWhatThePoolKeepsAreLeftToTheCollector() {
        Staging staging = new Staging(64, 2);
        List<ByteBuffer> out = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            out.add(staging.take());
        }
        out.forEach(b -> staging.back(b).run());
        Map<ByteBuffer, Boolean> kept = new IdentityHashMap<>();
        for (int i = 0; i < 5; i++) {
            ByteBuffer b = staging.take();
            if (out.stream().anyMatch(o -> o == b)) {
                kept.put(b, true);
            }
        }
        assertEquals(2, kept.size(), "two of the five kept");
    }
}
