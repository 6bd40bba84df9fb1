package io.polylink.method.shm.internal.segment;

import static io.polylink.method.shm.internal.segment.InboxLayout.STATE_ABANDONED;
import static io.polylink.method.shm.internal.segment.InboxLayout.STATE_CLOSED;
import static java.nio.file.LinkOption.NOFOLLOW_LINKS;

import io.polylink.ContextId;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * This context's own inbox over its life: made at start, abandoned for a fresh one when the poller
 * finds it corrupt, truncated or no longer under its name, marked closed and removed at stop.
 * While none can be made (the directory cannot be written, the file system is full, no file
 * descriptor is left) there is none, {@link #unavailable} says why, and the poller tries again;
 * after {@link #fail} there is none for good. The poller, the heartbeat timer and the method read
 * {@link #segment()}; only the poller makes, abandons and replaces it.
 */
public final class OwnInbox implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger("io.polylink.method.shm");

    private final TrustedDirectories directories;
    private final String name;
    private final ContextId owner;
    private final int slots;
    private final int ringBytes;
    private final int wakePort;
    private final long startMillis;
    /** The inbox as it is now; {@code null} while there is none. */
    private volatile Segment segment;
    /** Why there is no inbox, or {@code null}. */
    private volatile String unavailable;
    private volatile boolean failed;

    /**
     * Makes the inbox file (see {@link TrustedDirectories#create}); if it cannot, there is none
     * yet and {@link #unavailable} says why.
     *
     * @param name the inbox's file name in the own segment directory
     * @param wakePort the loopback port on which a parked poller waits for a sender's poke
     * @param startMillis when this process started, by which senders tell it from a later one of the same id
     */
    public OwnInbox(TrustedDirectories directories, String name, ContextId owner, int slots, int ringBytes,
                    int wakePort, long startMillis) {
        this.directories = directories;
        this.name = name;
        this.owner = owner;
        this.slots = slots;
        this.ringBytes = ringBytes;
        this.wakePort = wakePort;
        this.startMillis = startMillis;
        this.segment = make();
    }

    /** @return the inbox as it is now, or {@code null} while there is none */
    public Segment segment() {
        return segment;
    }

    /** @return why there is no inbox, or {@code null} if there is one */
    public String unavailable() {
        return unavailable;
    }

    public Path path() {
        return directories.own().resolve(name);
    }

    private Segment make() {
        try {
            Segment made = directories.create(name, owner, slots, ringBytes, wakePort, startMillis);
            unavailable = null;
            return made;
        } catch (FileSystemException e) {
            unavailable = "cannot use segment directory " + directories.own() + ": " + SegmentException.why(e);
        } catch (IOException e) {
            unavailable = e.getMessage(); // names the file and why
        } catch (SegmentException e) {
            unavailable = e.getMessage();
        }
        return null;
    }

    /**
     * Makes an inbox where there is none, on the poller.
     *
     * @return it, or {@code null} if there still is none ({@link #unavailable} says why)
     */
    public Segment retry() {
        if (failed || segment != null) {
            return segment;
        }
        Segment made = make();
        segment = made;
        return made;
    }

    /**
     * Abandons the inbox for a fresh one, on the poller. The fresh file takes the name first, so
     * senders that reconnect at once find it; then the old one is marked abandoned, unless it was
     * cut short (its state word may be gone), so its senders stop writing to it.
     *
     * @return the fresh inbox, or {@code null} if none could be made ({@link #unavailable} says why)
     */
    public Segment renew() {
        Segment old = segment;
        Segment fresh = failed ? null : make();
        segment = fresh;
        if (old != null) {
            if (old.intact()) {
                old.state(STATE_ABANDONED);
            }
            if (fresh == null) {
                remove(old); // so senders find no inbox rather than an abandoned one
            }
            old.close();
        }
        return fresh;
    }

    /**
     * @return whether the inbox's name still names this inbox's file: someone may have removed it
     *     or put another file in its place, and then senders can no longer find it. A look by path.
     */
    public boolean stillNamed() {
        Segment current = segment;
        return current == null || named(current);
    }

    private static boolean named(Segment segment) {
        try {
            return segment.fileKey().equals(
                Files.readAttributes(segment.path(), BasicFileAttributes.class, NOFOLLOW_LINKS).fileKey());
        } catch (IOException e) {
            return false;
        }
    }

    /** Removes the segment's file if its name still names it. */
    private static void remove(Segment segment) {
        try {
            if (named(segment)) {
                Files.deleteIfExists(segment.path());
            }
        } catch (IOException e) {
            LOG.log(Level.WARNING, "could not remove shm segment " + segment.path() + ": " + SegmentException.why(e));
        }
    }

    /** Counts a heartbeat, on the timer, if there is an inbox and nobody cut it short. */
    public void beat(long millis) {
        Segment current = segment;
        if (current != null && current.intact()) {
            current.beat(millis);
        }
    }

    /** The method cannot go on: the inbox is marked closed, so senders fail at once, and none is made again. */
    public void fail(String why) {
        failed = true;
        unavailable = why;
        markClosed();
    }

    /** Marks the inbox closed: senders see this before the file goes, and fail at once, not at the heartbeat timeout. */
    public void markClosed() {
        Segment current = segment;
        if (current != null && current.intact()) {
            current.state(STATE_CLOSED);
        }
    }

    /** Removes the file, if it is still this inbox's. */
    @Override
    public void close() {
        Segment current = segment;
        segment = null;
        if (current != null) {
            remove(current);
            current.close();
        }
    }
}
