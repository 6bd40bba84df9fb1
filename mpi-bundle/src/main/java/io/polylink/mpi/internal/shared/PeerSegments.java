package io.polylink.mpi.internal.shared;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;
import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.WRITE;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Other ranks' shared buffers, mapped read-only as RTSs name them: the {@value #KEPT} used last stay
 * mapped, so a rank that sends from the same buffer again costs no second mapping, and no peer can
 * make this rank keep more. Also maps, to write, the area another rank made for a communicator's
 * collectives ({@link #writable}).
 */
public final class PeerSegments {

    static final int KEPT = 64;

    private final SegmentDirectory directory;
    private final Map<SegmentKey, ByteBuffer> mapped = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<SegmentKey, ByteBuffer> eldest) {
            return size() > KEPT;
        }
    };

    private record SegmentKey(long pid, long token) {}

    public PeerSegments(SegmentDirectory directory) {
        this.directory = directory;
    }

    /**
     * @return the {@code length} bytes {@code where} names, as a read-only buffer of their own; or
     *     {@code null} if they are not there to read: no such file on this host, one this rank may not
     *     trust, or one too short. The caller then asks for the bytes to be sent.
     */
    public synchronized ByteBuffer bytes(SharedBytes where, long length) {
        SegmentKey key = new SegmentKey(where.pid(), where.token());
        ByteBuffer segment = mapped.get(key);
        if (segment == null) {
            segment = map(directory.file(where.pid(), where.token()));
            if (segment == null) {
                return null;
            }
            mapped.put(key, segment);
        }
        if (where.offset() < 0 || length < 0 || where.offset() > segment.capacity() - length) {
            return null;
        }
        return segment.slice((int) where.offset(), (int) length);
    }

    /**
     * @return the whole segment {@code where} names (its offset is ignored), mapped to be read and
     *     written, if it holds {@code length} bytes or more; or {@code null} if it cannot be: no such
     *     file on this host, one this rank may not trust, or one too short. Not kept among the
     *     segments mapped to read: the caller holds it as long as it needs it.
     */
    public ByteBuffer writable(SharedBytes where, int length) {
        Path file = directory.file(where.pid(), where.token());
        try (FileChannel channel = FileChannel.open(file, READ, WRITE, NOFOLLOW_LINKS)) {
            if (!directory.trusted(file) || channel.size() < length) {
                return null;
            }
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, length);
        } catch (IOException | UnsupportedOperationException e) {
            return null;
        }
    }

    /** Unmaps what {@code where} names: its file was found cut short while read. */
    public synchronized void forget(SharedBytes where) {
        mapped.remove(new SegmentKey(where.pid(), where.token()));
    }

    /** @return the segments mapped now */
    public synchronized int mapped() {
        return mapped.size();
    }

    private ByteBuffer map(Path file) {
        try (FileChannel channel = FileChannel.open(file, READ, NOFOLLOW_LINKS)) {
            if (!directory.trusted(file)) {
                return null;
            }
            long size = channel.size();
            return size > Integer.MAX_VALUE ? null : channel.map(FileChannel.MapMode.READ_ONLY, 0, size);
        } catch (IOException | UnsupportedOperationException e) {
            return null; // not on this host, gone, or not mappable: the data comes the usual way
        }
    }
}
