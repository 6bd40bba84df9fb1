package io.polylink.mpi.internal.shared;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bounce buffers in real files: sizes, reuse, the bound on their bytes, and a peer reading one. */
class BouncesTest {

    private static final int KIB = 1024;

    @TempDir
    Path temporary;

    @Test
    void buffersComeInPowersOfTwoAndAreReusedWithinTheirBound() throws IOException {
        SegmentDirectory dir = SegmentDirectory.open(temporary.resolve("segments"));
        try (OwnSegments own = new OwnSegments(dir, 64 * KIB + 1)) {
            Bounces bounces = new Bounces(own, 1024 * KIB);
            Bounces.Bounce small = bounces.take(65 * KIB);
            assertNotNull(small);
            assertEquals(128 * KIB, small.buffer().capacity(), "the smallest size");
            Bounces.Bounce large = bounces.take(300 * KIB);
            assertEquals(512 * KIB, large.buffer().capacity());
            assertEquals(640 * KIB, bounces.made());
            assertNull(bounces.take(600 * KIB), "another 1 MiB would pass the bound of 1 MiB");
            assertNull(bounces.take(2048 * KIB), "larger than the bound");
            Bounces.Bounce second = bounces.take(128 * KIB);
            assertNotSame(small, second, "a buffer taken is not handed out again");
            assertEquals(768 * KIB, bounces.made());

            small.buffer().put(new byte[100]);
            bounces.give(small);
            Bounces.Bounce again = bounces.take(100 * KIB);
            assertSame(small, again, "given back, reused for a message of its size");
            assertEquals(0, again.buffer().position(), "cleared for packing");
            assertEquals(3, own.files());

            bounces.give(large);
            assertNull(bounces.take(1000 * KIB), "a free 512 KiB buffer does not serve 1000 KiB, nor may one be made");
            bounces.discard(second);
            bounces.discard(again);
            assertEquals(512 * KIB, bounces.made(), "discarded buffers no longer count");
            assertNotNull(bounces.take(256 * KIB), "room made by the discarded ones");
        }
    }

    @Test
    void onceAFileCannotBeMadeOnlyTheBuffersMadeAreReused() throws IOException {
        SegmentDirectory dir = SegmentDirectory.open(temporary.resolve("segments"));
        OwnSegments own = new OwnSegments(dir, 64 * KIB + 1);
        Bounces bounces = new Bounces(own, 1024 * KIB);
        Bounces.Bounce made = bounces.take(100 * KIB);
        bounces.give(made);
        own.close(); // as a rank that finalized, or a directory that is full: no file can be made
        assertNull(bounces.take(200 * KIB));
        assertEquals(128 * KIB, bounces.made());
        assertSame(made, bounces.take(100 * KIB), "the buffer made before is still reused");
        assertNull(bounces.take(100 * KIB), "and no other is tried");
    }

    @Test
    void aPeerReadsWhatWasPackedIntoABounceBuffer() throws IOException {
        SegmentDirectory dir = SegmentDirectory.open(temporary.resolve("segments"));
        try (OwnSegments own = new OwnSegments(dir, 64 * KIB + 1)) {
            Bounces.Bounce b = new Bounces(own, 1024 * KIB).take(200 * KIB);
            for (int i = 0; i < 200 * KIB; i++) {
                b.buffer().put((byte) (i * 13));
            }
            ByteBuffer read = new PeerSegments(dir).bytes(b.at(), 200 * KIB);
            assertNotNull(read, "the peer maps the bounce buffer's file");
            for (int i = 0; i < 200 * KIB; i++) {
                assertEquals((byte) (i * 13), read.get(i), "byte " + i);
            }
        }
    }
}
