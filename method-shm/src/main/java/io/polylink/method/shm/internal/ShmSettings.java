package io.polylink.method.shm.internal;

import static io.polylink.spi.Configuration.requireRange;

import io.polylink.method.shm.internal.poll.IdleStrategy;
import io.polylink.method.shm.internal.segment.InboxLayout;
import io.polylink.spi.Configuration;
import io.polylink.spi.InvalidSettingException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The shm method's parameters, read from configuration properties keyed as in {@link ShmConfig},
 * which holds each default.
 *
 * @param directory where the segments live
 * @param trustedDirectories further directories whose inboxes this context maps
 * @param ringBytes inbox ring capacity, a power of two
 * @param producerSlots how many sending connections an inbox takes at once
 * @param idleStrategy what the poller does when idle
 * @param spinMicros how long {@link IdleStrategy#SPIN_THEN_PARK} polls after the last record
 * @param standBackMs how long the poller naps between its turns while callers receive
 * @param sendTimeoutMs how long a send waits for ring space
 * @param heartbeatIntervalMs how often the inbox heartbeat is written
 * @param failureTimeoutMs a receiver whose heartbeat and inbox stood still this long is dead if its
 *     process is stopped (a process that runs is only slow; one that ended is dead at once)
 * @param unblockTimeoutMs a claimed record left unfinished this long is skipped if its producer's
 *     process ended or is stopped
 */
record ShmSettings(Path directory, List<Path> trustedDirectories, int ringBytes, int producerSlots,
                   IdleStrategy idleStrategy, int spinMicros, int standBackMs, int sendTimeoutMs,
                   int heartbeatIntervalMs, int failureTimeoutMs, int unblockTimeoutMs) {

    static final String PID = "io.polylink.method.shm";

    /** @throws InvalidSettingException naming the key whose value is out of range */
    ShmSettings {
        if (ringBytes < InboxLayout.MIN_RING || ringBytes > InboxLayout.MAX_RING || Integer.bitCount(ringBytes) != 1) {
            throw new InvalidSettingException(PID, "ringBytes", ringBytes, "a power of two in "
                + InboxLayout.MIN_RING + ".." + InboxLayout.MAX_RING);
        }
        requireRange(PID, "producerSlots", producerSlots, 1, InboxLayout.MAX_SLOTS);
        requireRange(PID, "spinMicros", spinMicros, 0, Integer.MAX_VALUE);
        requireRange(PID, "standBackMs", standBackMs, 1, 60_000);
        requireRange(PID, "sendTimeoutMs", sendTimeoutMs, 0, Integer.MAX_VALUE);
        requireRange(PID, "heartbeatIntervalMs", heartbeatIntervalMs, 1, Integer.MAX_VALUE);
        requireRange(PID, "failureTimeoutMs", failureTimeoutMs, 1, Integer.MAX_VALUE);
        requireRange(PID, "unblockTimeoutMs", unblockTimeoutMs, 1, Integer.MAX_VALUE);
        if (heartbeatIntervalMs >= failureTimeoutMs) {
            throw new InvalidSettingException(PID, "heartbeatIntervalMs", heartbeatIntervalMs,
                "below failureTimeoutMs (" + failureTimeoutMs + ")");
        }
        directory = absolute(directory);
        trustedDirectories = trustedDirectories.stream().map(ShmSettings::absolute).toList();
    }

    private static Path absolute(Path directory) {
        return directory.toAbsolutePath().normalize();
    }

    /**
     * @param properties the configuration, keyed as in {@link ShmConfig}; keys it lacks take their defaults
     * @throws InvalidSettingException naming the key whose value cannot be used
     */
    static ShmSettings read(Map<String, ?> properties) {
        ShmConfig config = Configuration.read(PID, ShmConfig.class, properties);
        return new ShmSettings(
            config.directory().isEmpty() ? defaultDirectory() : path("directory", config.directory()),
            Stream.of(config.trustedDirectories()).map(d -> path("trustedDirectories", d)).toList(),
            config.ringBytes(),
            config.producerSlots(),
            IdleStrategy.parse(PID, "idleStrategy", config.idleStrategy()),
            config.spinMicros(),
            config.standBackMs(),
            config.sendTimeoutMs(),
            config.heartbeatIntervalMs(),
            config.failureTimeoutMs(),
            config.unblockTimeoutMs());
    }

    /** @throws InvalidSettingException naming {@code key} if {@code text} is no path */
    private static Path path(String key, String text) {
        try {
            return Path.of(text);
        } catch (InvalidPathException e) {
            throw new InvalidSettingException(PID, key, text, "a directory's path");
        }
    }

    /** @return /dev/shm/polylink-&lt;user&gt;, or the temporary directory where there is no /dev/shm */
    static Path defaultDirectory() {
        String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_");
        Path shm = Path.of("/dev/shm");
        Path base = Files.isDirectory(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
        return base.resolve("polylink-" + user);
    }
}
