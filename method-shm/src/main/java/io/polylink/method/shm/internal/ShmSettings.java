package io.polylink.method.shm.internal;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The shm method's parameters, read from configuration properties keyed as in {@link ShmConfig}.
 *
 * @param directory where the segments live
 * @param ringBytes inbox ring capacity, a power of two
 * @param producerSlots how many sending connections an inbox takes at once
 * @param idleStrategy what the poller does when idle
 * @param spinMicros how long {@link IdleStrategy#SPIN_THEN_PARK} polls after the last record
 * @param sendTimeoutMs how long a send waits for ring space
 * @param heartbeatIntervalMs how often the inbox heartbeat is written
 * @param failureTimeoutMs a receiver whose heartbeat and inbox stood still this long is dead if its
 *     process is stopped (a process that runs is only slow; one that ended is dead at once)
 * @param unblockTimeoutMs a claimed record left unfinished this long is skipped if its producer's
 *     process ended or is stopped
 * @param hostId the host identity to advertise, or empty for this host's own
 */
record ShmSettings(Path directory, int ringBytes, int producerSlots, IdleStrategy idleStrategy, int spinMicros,
                   int sendTimeoutMs, int heartbeatIntervalMs, int failureTimeoutMs, int unblockTimeoutMs,
                   String hostId) {

    ShmSettings {
        if (ringBytes < InboxLayout.MIN_RING || ringBytes > InboxLayout.MAX_RING || Integer.bitCount(ringBytes) != 1) {
            throw new IllegalArgumentException("shm ringBytes=" + ringBytes + " is not a power of two in "
                + InboxLayout.MIN_RING + ".." + InboxLayout.MAX_RING);
        }
        if (producerSlots < 1 || producerSlots > InboxLayout.MAX_SLOTS) {
            throw new IllegalArgumentException("shm producerSlots=" + producerSlots + " is outside 1.."
                + InboxLayout.MAX_SLOTS);
        }
        check("spinMicros", spinMicros, 0);
        check("sendTimeoutMs", sendTimeoutMs, 0);
        check("heartbeatIntervalMs", heartbeatIntervalMs, 1);
        check("failureTimeoutMs", failureTimeoutMs, 1);
        check("unblockTimeoutMs", unblockTimeoutMs, 1);
        if (heartbeatIntervalMs >= failureTimeoutMs) {
            throw new IllegalArgumentException("shm heartbeatIntervalMs (" + heartbeatIntervalMs
                + ") must be below failureTimeoutMs (" + failureTimeoutMs + ")");
        }
        if (!directory.isAbsolute()) {
            directory = directory.toAbsolutePath();
        }
        directory = directory.normalize();
    }

    private static void check(String name, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException("shm parameter " + name + "=" + value + " is below " + min);
        }
    }

    /** @return /dev/shm/polylink-&lt;user&gt;, or the temporary directory where there is no /dev/shm */
    static Path defaultDirectory() {
        String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_");
        Path shm = Path.of("/dev/shm");
        Path base = Files.isDirectory(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
        return base.resolve("polylink-" + user);
    }

    /** @throws IllegalArgumentException naming the property that is wrong */
    static ShmSettings parse(Map<String, ?> p) {
        String directory = text(p, "directory", "");
        return new ShmSettings(
            directory.isEmpty() ? defaultDirectory() : Path.of(directory),
            integer(p, "ringBytes", 1 << 20),
            integer(p, "producerSlots", 64),
            IdleStrategy.parse(text(p, "idleStrategy", "spin-then-park")),
            integer(p, "spinMicros", 200),
            integer(p, "sendTimeoutMs", 5000),
            integer(p, "heartbeatIntervalMs", 100),
            integer(p, "failureTimeoutMs", 1000),
            integer(p, "unblockTimeoutMs", 1000),
            text(p, "hostId", ""));
    }

    private static String text(Map<String, ?> p, String key, String fallback) {
        Object value = p.get(key);
        return value == null ? fallback : value.toString().strip();
    }

    private static int integer(Map<String, ?> p, String key, int fallback) {
        Object value = p.get(key);
        if (value instanceof Number n) {
            return n.intValue();
        }
        try {
            return value == null ? fallback : Integer.parseInt(value.toString().strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("shm property " + key + "='" + value + "' is not an integer", e);
        }
    }
}
