package io.polylink.bench.internal.pingpong;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The raw-shm file: two {@link RawShmRing}s, client to server then server to client, in one
 * memory-mapped file. The server creates it (every page touched before use, so no first-touch
 * page fault lands in a measured round trip) and the client maps it by path. The rings' slices
 * keep the mapping alive; it goes with them.
 */
final class RawShmSegment {

    /** Data bytes per ring: the shm method's default ring size, so neither side has the bigger buffer. */
    static final int RING_BYTES = 1 << 20;

    private final RawShmRing toServer;
    private final RawShmRing toClient;

    private RawShmSegment(MappedByteBuffer mapped) {
        int region = RawShmRing.regionBytes(RING_BYTES);
        this.toServer = new RawShmRing(mapped.slice(0, region));
        this.toClient = new RawShmRing(mapped.slice(region, region));
    }

    private static int fileBytes() {
        return 2 * RawShmRing.regionBytes(RING_BYTES);
    }

    /** Creates, zeroes and maps a new segment at {@code path}; fails if the file exists. */
    static RawShmSegment create(Path path) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, fileBytes());
            for (int i = 0; i < fileBytes(); i += Long.BYTES) {
                mapped.putLong(i, 0);
            }
            return new RawShmSegment(mapped);
        }
    }

    /** Maps the segment the server created at {@code path}. */
    static RawShmSegment open(Path path) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            if (channel.size() != fileBytes()) {
                throw new IOException(path + " has " + channel.size() + " bytes, not the " + fileBytes()
                    + " of a raw-shm segment");
            }
            return new RawShmSegment(channel.map(FileChannel.MapMode.READ_WRITE, 0, fileBytes()));
        }
    }

    RawShmRing toServer() {
        return toServer;
    }

    RawShmRing toClient() {
        return toClient;
    }
}
