package io.polylink.method.shm.internal.liveness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

/**
 * Whether the process that wrote a segment still runs. On one host this is known for certain from
 * the process table, unlike a heartbeat, which a loaded host or a collection pause can hold up for
 * seconds in a process that is alive and will go on.
 *
 * <p>Reading a process's entry in {@code /proc} takes a file descriptor. A process that has none
 * left cannot read it, and is told nothing about the process, never that it ended: such an
 * answer would fail live peers' connections. So where the entry cannot be read but is there
 * (looking needs no descriptor), the process counts as running and its start as unknown.
 */
public final class Liveness {

    private Liveness() {}

    /** @return this process's start, in epoch ms, or 0 if the platform does not say */
    public static long startMillis(ProcessHandle process) {
        return process.info().startInstant().map(Instant::toEpochMilli).orElse(0L);
    }

    /**
     * @param pid the owner's process id
     * @param startMillis its start time as it recorded it, or 0 if unknown
     * @return whether that process still runs (a reused pid with another start time does not count)
     */
    public static boolean alive(long pid, long startMillis) {
        if (pid == ProcessHandle.current().pid()) {
            return true;
        }
        // A handle is there only for a live process; asking it isAlive() again read /proc a second time.
        return ProcessHandle.of(pid).map(p -> startMillis == 0 || sameStart(startMillis(p), startMillis))
            .orElseGet(() -> listed(pid));
    }

    /** @return whether {@code /proc} lists the process: a look at the directory, which takes no descriptor */
    private static boolean listed(long pid) {
        return pid > 0 && Files.isDirectory(Path.of("/proc", Long.toString(pid)));
    }

    /** The start as read now, 0 where the platform does not say, against the start recorded. */
    private static boolean sameStart(long now, long recorded) {
        return now == 0 || Math.abs(now - recorded) < 1000;
    }

    /**
     * @return whether the process is stopped by a signal or a debugger (state {@code T} or
     *     {@code t} in {@code /proc/<pid>/stat}): it will do nothing until someone continues it.
     *     {@code false} for a process that runs, waits or is gone, and where the platform does not
     *     say (no {@code /proc}).
     */
    public static boolean stopped(long pid) {
        if (pid == ProcessHandle.current().pid()) {
            return false;
        }
        String stat;
        try {
            stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        } catch (IOException | RuntimeException e) {
            return false;
        }
        // "pid (command) S ...": the command may hold spaces and parentheses, the state follows the last ')'.
        int end = stat.lastIndexOf(')');
        if (end < 0 || end + 2 >= stat.length()) {
            return false;
        }
        char state = stat.charAt(end + 2);
        return state == 'T' || state == 't';
    }
}
