package io.polylink.method.shm.internal;

import java.time.Instant;

/** Whether the process that wrote a segment still runs. */
final class Liveness {

    private Liveness() {}

    /** @return this process's start, in epoch ms, or 0 if the platform does not say */
    static long startMillis(ProcessHandle process) {
        return process.info().startInstant().map(Instant::toEpochMilli).orElse(0L);
    }

    /**
     * @param pid the owner's process id
     * @param startMillis its start time as it recorded it, or 0 if unknown
     * @return whether that process still runs (a reused pid with another start time does not count)
     */
    static boolean alive(long pid, long startMillis) {
        if (pid == ProcessHandle.current().pid()) {
            return true;
        }
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
            .map(p -> startMillis == 0 || Math.abs(startMillis(p) - startMillis) < 1000 || startMillis(p) == 0)
            .orElse(false);
    }
}
