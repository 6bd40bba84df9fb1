package io.polylink.mpi.internal.shared;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;
import static java.nio.file.StandardOpenOption.CREATE_NEW;
import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.WRITE;

import io.polylink.mpi.internal.WeakIdentityTable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Set;

/**
 * This rank's shared buffers: each a file of its own in the {@link SegmentDirectory}, mapped, and
 * known by its identity.
 *
 * <p>A buffer's file is deleted once the buffer was collected (noticed at the next allocation) or
 * when the rank finalizes, whichever comes first; mappings outlive the file, so a buffer still in use
 * after {@code MPI.Finalize} keeps its contents. Files of ranks that died are deleted by the next
 * rank of the same host that makes a shared buffer.
 */
public final class OwnSegments implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger("io.polylink.mpi");
    private static final Set<java.nio.file.OpenOption> NEW = Set.of(CREATE_NEW, READ, WRITE, NOFOLLOW_LINKS);
    private static final int ZEROS = 64 * 1024;

    /** A buffer's segment and file, which is deleted once the buffer was collected. */
    private record Placed(long token, Path file) {}

    private final SegmentDirectory directory;
    private final int smallest;
    private final long pid = ProcessHandle.current().pid();
    private final SecureRandom tokens = new SecureRandom();
    private final WeakIdentityTable<Placed> placed = new WeakIdentityTable<>();
    private boolean swept;
    private volatile boolean closed;
    private volatile String refused;

    /**
     * @param directory where the files go
     * @param smallest the least capacity made shared: smaller buffers never carry a message that
     *     goes by rendezvous, so a file would buy nothing
     */
    public OwnSegments(SegmentDirectory directory, int smallest) {
        this.directory = directory;
        this.smallest = smallest;
    }

    /**
     * @return a direct buffer of {@code capacity} bytes in a file of its own, or {@code null} if it is
     *     smaller than is worth it, the rank finalized, or the file could not be made (the reason is
     *     logged once): the caller allocates ordinary direct memory then
     */
    public ByteBuffer allocate(int capacity) {
        return capacity < smallest ? null : place(capacity);
    }

    /**
     * @return a direct buffer of {@code capacity} bytes in a file of its own, whatever its size; or
     *     {@code null} if the rank finalized or the file could not be made (the reason is logged once)
     */
    public ByteBuffer place(int capacity) {
        if (closed) {
            return null;
        }
        sweep();
        long token = tokens.nextLong();
        Path file = directory.file(pid, token);
        try (FileChannel channel = FileChannel.open(file, NEW,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))) {
            // Written rather than only sized, so a full tmpfs fails here, not with SIGBUS at a later store.
            ByteBuffer zeros = ByteBuffer.allocate(Math.min(capacity, ZEROS));
            for (long at = 0; at < capacity; ) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), capacity - at));
                at += channel.write(zeros, at);
            }
            ByteBuffer buffer = channel.map(FileChannel.MapMode.READ_WRITE, 0, capacity);
            placed.put(buffer, new Placed(token, file));
            if (closed) {
                delete(file); // the rank finalized meanwhile: the buffer keeps its mapping, not its file
            }
            return buffer;
        } catch (IOException | UnsupportedOperationException e) {
            delete(file);
            if (refused == null) {
                refused = e.toString();
                LOG.log(System.Logger.Level.WARNING, "cannot make " + file + ": " + e + "; a direct buffer or "
                    + "bounce buffer this rank cannot place there is not shared with the host's other ranks, and its "
                    + "large messages take two copies");
            }
            return null;
        }
    }

    /**
     * @return where byte {@code offset} of {@code buffer} lies, if it is a buffer this rank made
     *     shared (views and slices are found through the buffer they lie in); else {@code null}
     */
    public SharedBytes find(Object buffer, long offset) {
        Placed p = closed ? null : placed.get(buffer);
        return p == null ? null : new SharedBytes(pid, p.token(), offset);
    }

    /**
     * Deletes the file of {@code buffer}, a buffer this rank made shared, now: the ranks that map it
     * keep their mappings, and no rank can map it any more.
     */
    public void unlink(ByteBuffer buffer) {
        Placed p = placed.remove(buffer);
        if (p != null) {
            delete(p.file());
        }
    }

    /** @return where the files go */
    public SegmentDirectory directory() {
        return directory;
    }

    /** @return the files made and not yet deleted */
    public int files() {
        return placed.size();
    }

    /** Deletes every file still there; buffers keep their contents, and later ones are ordinary. */
    @Override
    public void close() {
        closed = true;
        placed.values().forEach(p -> delete(p.file()));
    }

    /** Deletes the files of buffers collected since, and once the files of this host's ranks that died. */
    private void sweep() {
        placed.expunge(p -> delete(p.file()));
        synchronized (this) {
            if (swept) {
                return;
            }
            swept = true;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory.path(), "mpi-*")) {
            for (Path f : files) {
                long owner = SegmentDirectory.owner(f.getFileName().toString());
                if (owner > 0 && owner != pid && ProcessHandle.of(owner).isEmpty()) {
                    delete(f);
                }
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "cannot look for dead ranks' buffers in " + directory + ": " + e);
        }
    }

    private static void delete(Path file) {
        if (file == null) {
            return;
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "cannot delete " + file + ": " + e);
        }
    }
}
