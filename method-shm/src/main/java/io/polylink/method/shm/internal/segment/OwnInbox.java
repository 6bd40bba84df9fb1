package io.polylink.method.shm.internal.segment;

import static io.polylink.method.shm.internal.segment.InboxLayout.STATE_CLOSED;
import static io.polylink.method.shm.internal.segment.InboxLayout.STATE_CORRUPT;

import io.polylink.ContextId;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;

/**
 * This context's own inbox over its life: made at start, replaced when the poller finds it
 * corrupt, marked closed and removed at stop. The poller, the heartbeat timer and the method's
 * stop read {@link #segment()}; only the poller replaces it.
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
    private volatile Segment segment;

    /**
     * Makes the inbox file (see {@link TrustedDirectories#create}).
     *
     * @param name the inbox's file name in the own segment directory
     * @param wakePort the loopback port on which a parked poller waits for a sender's poke
     * @param startMillis when this process started, by which senders tell it from a later one of the same id
     * @throws IOException naming the file and the reason
     * @throws SegmentException if the directory may be written by others
     */
    public OwnInbox(TrustedDirectories directories, String name, ContextId owner, int slots, int ringBytes,
                    int wakePort, long startMillis) throws IOException {
        this.directories = directories;
        this.name = name;
        this.owner = owner;
        this.slots = slots;
        this.ringBytes = ringBytes;
        this.wakePort = wakePort;
        this.startMillis = startMillis;
        this.segment = directories.create(name, owner, slots, ringBytes, wakePort, startMillis);
    }

    /** @return the inbox as it is now */
    public Segment segment() {
        return segment;
    }

    /**
     * Replaces the inbox with a fresh one, on the poller. The fresh file takes the name first, so
     * senders that reconnect at once find it; then the old one is marked corrupt, so its senders
     * stop writing to it.
     *
     * @return the fresh inbox
     * @throws IOException if the fresh file cannot be made
     */
    public Segment replace() throws IOException {
        Segment old = segment;
        segment = directories.create(name, owner, slots, ringBytes, wakePort, startMillis);
        old.state(STATE_CORRUPT);
        old.close();
        return segment;
    }

    /** Marks the inbox closed: senders see this before the file goes, and fail at once, not at the heartbeat timeout. */
    public void markClosed() {
        segment.state(STATE_CLOSED);
    }

    /** Removes the file. */
    @Override
    public void close() {
        try {
            Files.deleteIfExists(segment.path());
        } catch (IOException e) {
            LOG.log(Level.WARNING, "could not remove shm segment " + segment.path() + ": " + e.getMessage());
        } finally {
            segment.close();
        }
    }
}
