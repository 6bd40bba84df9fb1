package io.polylink.method.shm.internal.segment;

import io.polylink.ContextId;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Where this context makes its inbox and which inboxes it maps. A mapped file that someone
 * truncates turns every access past its new end into a bus error in the threads that touch it, so
 * an inbox is mapped only if its owner proved it is this context's user's: it lies in this
 * context's own segment directory or in one configured as trusted, that directory belongs to this
 * user and no one else may write it, and the file is a regular file of this user's that no one
 * else may write. Each check is made through an open descriptor (see {@link SecureDirectory}), not
 * by path. This user is the owner of the inbox this context made.
 *
 * <p>Thread-safe: the poller makes inboxes, senders' threads and the poller map them.
 */
public final class TrustedDirectories {

    private final Path own;
    private final List<Path> trusted;
    /** The user this context runs as, learnt from the first inbox it made; {@code null} before. */
    private volatile UserPrincipal user;

    /**
     * @param own this context's segment directory, absolute and normal
     * @param others further directories whose inboxes it maps, absolute and normal
     */
    public TrustedDirectories(Path own, Collection<Path> others) {
        this.own = own;
        List<Path> all = new ArrayList<>();
        all.add(own);
        all.addAll(others);
        this.trusted = List.copyOf(all);
    }

    /** @return this context's own segment directory */
    public Path own() {
        return own;
    }

    /** @return whether inboxes in {@code directory} (absolute and normal) may be mapped here */
    public boolean trusts(Path directory) {
        return trusted.contains(directory);
    }

    /** @return why inboxes in {@code directory} are not mapped here, for a refusal */
    public String distrust(Path directory) {
        return "segment directory " + directory + " is not one this context trusts (its own is " + own
            + "; add the other to trustedDirectories to map inboxes there)";
    }

    /**
     * Makes an inbox named {@code name} in the own directory, making the directory if missing (see
     * {@link Segment#create}), and learns from it which user this context runs as.
     *
     * @throws IOException naming the file or directory and the reason
     * @throws SegmentException if the directory may be written by others
     */
    public Segment create(String name, ContextId owner, int slots, int ringBytes, int wakePort, long startMillis)
            throws IOException {
        SegmentDirectory.prepare(own);
        try (SecureDirectory directory = SecureDirectory.open(own)) {
            Segment made = Segment.create(directory, name, owner, slots, ringBytes, wakePort, startMillis);
            user = directory.attributes(name).owner();
            return made;
        }
    }

    /**
     * Maps the inbox {@code name} in {@code directory} (absolute and normal).
     *
     * @throws SegmentException naming the file and what is wrong with it or with where it is
     */
    public Segment open(Path directory, String name) {
        Path path = directory.resolve(name);
        if (!trusts(directory)) {
            throw new SegmentException("shm maps no inbox " + path + ": " + distrust(directory));
        }
        UserPrincipal me = user;
        if (me == null) {
            throw new SegmentException("shm maps no inbox " + path + " before it made its own");
        }
        SecureDirectory found;
        try {
            found = SecureDirectory.open(directory);
        } catch (NoSuchFileException e) {
            throw new SegmentException("no segment directory " + directory + " here");
        } catch (IOException e) {
            throw new SegmentException("cannot open segment directory " + directory + ": " + SegmentException.why(e));
        }
        try (SecureDirectory opened = found) {
            opened.requirePrivate(me);
            return Segment.open(opened, name, opened.requireOwnFile(name, me).fileKey());
        } catch (NoSuchFileException e) {
            throw new SegmentException("no shm segment " + path + " (the context stopped, or this process sees "
                + "another file system there)");
        } catch (AccessDeniedException e) {
            throw new SegmentException("shm segment " + path + " is not readable and writable here");
        } catch (IOException e) {
            throw new SegmentException("cannot map shm segment " + path + ": " + SegmentException.why(e));
        }
    }
}
