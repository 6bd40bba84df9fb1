package io.polylink.mpi.internal.shared;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A rank's shared buffers in real files of a real directory, and another rank's view of them. */
class SegmentsTest {

    @TempDir
    Path temporary;

    private SegmentDirectory directory() throws IOException {
        return SegmentDirectory.open(temporary.resolve("segments"));
    }

    @Test
    void aBufferIsFoundWhereItLiesAndReadThereByAPeer() throws IOException {
        SegmentDirectory dir = directory();
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.path())));
        try (OwnSegments own = new OwnSegments(dir, 1024)) {
            assertNull(own.allocate(1023), "smaller than worth a file");
            ByteBuffer bytes = own.allocate(64 * 1024);
            assertNotNull(bytes);
            assertEquals(1, own.files());
            for (int i = 0; i < bytes.capacity(); i++) {
                bytes.put(i, (byte) i);
            }

            SharedBytes whole = own.find(bytes, 0);
            SharedBytes sliced = own.find(bytes, 110);
            assertEquals(whole.token(), sliced.token());
            assertEquals(110, sliced.offset());
            assertNull(own.find(bytes.duplicate(), 0), "a copy of the buffer object is not one made here");
            assertNull(own.find(ByteBuffer.allocateDirect(64 * 1024), 0));

            PeerSegments peer = new PeerSegments(dir);
            ByteBuffer read = peer.bytes(sliced, 500);
            assertEquals(500, read.remaining());
            assertEquals((byte) 110, read.get(0));
            assertTrue(read.isReadOnly());
            assertNull(peer.bytes(sliced, 64 * 1024), "past the file's end");
            assertNull(peer.bytes(new SharedBytes(whole.pid(), whole.token() + 1, 0), 1), "no such file");
            assertEquals(1, peer.mapped());
        }
    }

    @Test
    void closingDeletesTheFilesAndLaterBuffersAreNotShared() throws IOException {
        SegmentDirectory dir = directory();
        OwnSegments own = new OwnSegments(dir, 1);
        ByteBuffer bytes = own.allocate(4096);
        SharedBytes where = own.find(bytes, 0);
        own.close();
        try (var files = Files.list(dir.path())) {
            assertEquals(0, files.count());
        }
        bytes.put(0, (byte) 1); // the mapping outlives the file
        assertNull(own.find(bytes, 0));
        assertNull(own.allocate(4096));
        assertNull(new PeerSegments(dir).bytes(where, 1));
    }

    @Test
    void aPeerMapsOnlyPrivateFilesOfItsUserAndKeepsABoundedNumberMapped() throws IOException {
        SegmentDirectory dir = directory();
        try (OwnSegments own = new OwnSegments(dir, 1)) {
            List<ByteBuffer> buffers = new ArrayList<>();
            PeerSegments peer = new PeerSegments(dir);
            for (int i = 0; i < PeerSegments.KEPT + 10; i++) {
                ByteBuffer b = own.allocate(4096);
                buffers.add(b);
                assertNotNull(peer.bytes(own.find(b, 0), 4096));
            }
            assertEquals(PeerSegments.KEPT, peer.mapped());

            ByteBuffer open = own.allocate(4096);
            SharedBytes where = own.find(open, 0);
            Path file = dir.file(where.pid(), where.token());
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
            assertNull(peer.bytes(where, 1), "a file others may write");
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            Files.delete(file);
            Files.createSymbolicLink(file, dir.file(where.pid(), own.find(buffers.get(0), 0).token()));
            assertNull(peer.bytes(where, 1), "a link");
        }
    }

    @Test
    void aDirectoryOthersMayWriteIsRefusedSayingWhatToChange() throws IOException {
        Path open = Files.createDirectory(temporary.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        IOException e = assertThrows(IOException.class, () -> SegmentDirectory.open(open));
        assertTrue(e.getMessage().contains("chmod go-w " + open), e.getMessage());
        Path file = Files.createFile(temporary.resolve("file"));
        assertTrue(assertThrows(IOException.class, () -> SegmentDirectory.open(file)).getMessage()
            .contains("not a directory"));
    }

    @Test
    void segmentFileNamesCarryTheirOwnersProcessId() {
        assertEquals(123, SegmentDirectory.owner("mpi-123-00000000000000ff"));
        assertEquals(-1, SegmentDirectory.owner("mpi-123-ff"));
        assertEquals(-1, SegmentDirectory.owner("inbox-123"));
    }
}
