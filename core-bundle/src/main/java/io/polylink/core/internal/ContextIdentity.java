package io.polylink.core.internal;

import io.polylink.ContextId;
import io.polylink.core.internal.config.CoreSettings;
import io.polylink.spi.HostIdentity;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * Which id the context of the core bundle takes, so that its peers' startpoints keep reaching it:
 *
 * <ol>
 *   <li>the configured {@code id};
 *   <li>else the id it has, when its runtime starts again after a change of configuration;
 *   <li>else the id it had before the core bundle stopped, recorded in the bundle's data area
 *       (kept across stops, starts and updates of the bundle, for as long as the framework's
 *       storage);
 *   <li>else, for a context with a name, an id derived from the name, its place (the
 *       distribution folder, or else the framework's storage) and this machine: the same at every
 *       start of a node, and different for nodes of one name in two places or on two machines;
 *   <li>else a fresh random id.
 * </ol>
 */
final class ContextIdentity {

    private static final System.Logger LOG = System.getLogger("io.polylink.core");

    /** Where the id in use is recorded; {@code null} where the framework has no file system. */
    private final Path record;
    /** What makes one place's contexts of a name different from another's. */
    private final String place;

    /**
     * @param record the file in the bundle's data area that keeps the id in use, or {@code null}
     * @param place the distribution folder ({@code polylink.home}), or else the framework's storage
     */
    ContextIdentity(Path record, String place) {
        this.record = record;
        this.place = place;
    }

    /**
     * @param settings the configuration in force
     * @param name the name the context publishes under, or {@code null}
     * @param current the id of the runtime being replaced, or {@code null} when the bundle starts
     * @return the id the new runtime takes
     */
    ContextId choose(CoreSettings settings, String name, ContextId current) {
        if (settings.id() != null) {
            return settings.id();
        }
        if (current != null) {
            return current;
        }
        ContextId recorded = recorded();
        if (recorded != null) {
            return recorded;
        }
        return name == null ? ContextId.random() : derived(name, place, settings.host());
    }

    /** Keeps {@code id} for the next start of the bundle; a failure costs only that. */
    void record(ContextId id) {
        if (record == null) {
            return;
        }
        try {
            Files.writeString(record, id + "\n", StandardCharsets.US_ASCII);
        } catch (IOException e) {
            LOG.log(Level.WARNING, "cannot record context id " + id + " in " + record + " (" + e.getMessage()
                + "); the core gets a new id when its bundle starts again");
        }
    }

    private ContextId recorded() {
        if (record == null || !Files.isRegularFile(record)) {
            return null;
        }
        try {
            return ContextId.parse(Files.readString(record, StandardCharsets.US_ASCII).strip());
        } catch (IOException | IllegalArgumentException e) {
            LOG.log(Level.WARNING, "ignoring the recorded context id in " + record + ": " + e.getMessage());
            return null;
        }
    }

    /**
     * @return a version 8 UUID (RFC 9562) from a SHA-256 of the name, the place and the machine
     *     half of the host identity (not the boot half: a reboot keeps the id)
     */
    static ContextId derived(String name, String place, HostIdentity host) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
        sha.update("polylink context\0".getBytes(StandardCharsets.UTF_8));
        sha.update(name.getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
        sha.update(place.getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
        sha.update(Arrays.copyOf(host.bytes(), HostIdentity.BYTES / 2));
        ByteBuffer hash = ByteBuffer.wrap(sha.digest());
        long high = hash.getLong() & ~0xF000L | 0x8000L;
        long low = hash.getLong() & 0x3FFFFFFFFFFFFFFFL | 0x8000000000000000L;
        return new ContextId(high, low);
    }

    /**
     * @param home the framework property {@code polylink.home}, or {@code null}
     * @param storage the bundle's data area, or {@code null}
     * @return the place that tells contexts of one name apart, as {@link #derived} takes it
     */
    static String place(String home, Path storage) {
        return home != null && !home.isBlank() ? Path.of(home).toAbsolutePath().normalize().toString()
            : storage == null ? "" : storage.toAbsolutePath().normalize().toString();
    }
}
