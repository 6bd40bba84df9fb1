package io.polylink.method.shm.internal.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class ReassemblyTest {

    @Test
    void aDeliveredFramesBufferServesTheNextFrameOfTheSameOrSmallerSize() {
        Reassembly r = new Reassembly();
        ByteBuffer first = r.take(1 << 20);
        assertEquals(0, first.position());
        assertEquals(1 << 20, first.limit());
        first.position(first.limit()).flip();
        r.give(first);
        ByteBuffer second = r.take((1 << 20) - 100);
        assertSame(first, second);
        assertEquals(0, second.position());
        assertEquals((1 << 20) - 100, second.limit());
        ByteBuffer meanwhile = r.take(1000);
        assertNotSame(second, meanwhile, "a buffer in use is never handed out twice");
    }

    @Test
    void theLargestBufferIsKeptAndAnIdleOneGoes() {
        Reassembly r = new Reassembly();
        ByteBuffer small = r.take(100_000);
        ByteBuffer large = r.take(3_000_000);
        r.give(large);
        r.give(small);
        ByteBuffer spare = r.take(1);
        assertSame(large, spare, "the largest buffer given back is the spare");
        r.give(spare);
        for (int i = 1; i < Reassembly.IDLE_TICKS; i++) {
            r.tick();
        }
        spare = r.take(1);
        assertSame(large, spare, "kept through IDLE_TICKS - 1 ticks without a split frame");
        r.give(spare);
        for (int i = 0; i < Reassembly.IDLE_TICKS; i++) {
            r.tick();
        }
        assertNotSame(large, r.take(1), "no split frame for IDLE_TICKS ticks: the spare goes");
    }
}
