package io.polylink.method.shm.internal.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.ContextId;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a mapped segment's descriptor says of its file, without touching the mapping. */
class SegmentTest {

    @TempDir
    Path directory;

    private Segment make() throws IOException {
        return new TrustedDirectories(directory, List.of())
            .create(SegmentDirectory.inboxName(new ContextId(0, 1)), new ContextId(0, 1), 2, InboxLayout.MIN_RING, 1, 0);
    }

    @Test
    void aFileCutShortIsToldByItsDescriptor() throws IOException {
        try (Segment segment = make()) {
            assertTrue(segment.intact());
            assertEquals(segment.length(), segment.fileSize());
            try (FileChannel file = FileChannel.open(segment.path(), StandardOpenOption.WRITE)) {
                file.truncate(4096);
            }
            assertFalse(segment.intact(), "a file shorter than its mapping");
            assertEquals(4096, segment.fileSize());
        }
    }

    @Test
    void anInterruptedThreadAsksWithoutClosingTheFileAndKeepsItsInterrupt() throws IOException {
        try (Segment segment = make()) {
            Thread.currentThread().interrupt();
            try {
                assertTrue(segment.intact());
                assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is kept");
            } finally {
                Thread.interrupted();
            }
            assertEquals(segment.length(), segment.fileSize(), "the file is still open");
        }
    }

    @Test
    void aClosedSegmentCannotTellItsSizeAndIsNotTakenForCutShort() throws IOException {
        Segment segment = make();
        segment.close();
        assertEquals(-1, segment.fileSize());
        assertTrue(segment.intact(), "only a file known to be short proves a fault");
    }
}
