package io.polylink.method.shm.internal;

/** At most {@code perSecond} log lines a second, so a misbehaving peer cannot flood the log. */
final class LogLimiter {

    private final int perSecond;
    private long windowStart = System.nanoTime();
    private int used;

    LogLimiter(int perSecond) {
        this.perSecond = perSecond;
    }

    synchronized boolean allow() {
        long now = System.nanoTime();
        if (now - windowStart >= 1_000_000_000L) {
            windowStart = now;
            used = 0;
        }
        return used++ < perSecond;
    }
}
