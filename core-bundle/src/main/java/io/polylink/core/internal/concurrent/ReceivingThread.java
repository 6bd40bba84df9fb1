package io.polylink.core.internal.concurrent;

/**
 * Marks a thread while it runs an inline handler, so a send from it is never made to wait on the
 * peer: the thread is the one that would read the peer's answer.
 */
public final class ReceivingThread {

    private static final ThreadLocal<int[]> DEPTH = ThreadLocal.withInitial(() -> new int[1]);

    private ReceivingThread() {}

    /** @return the token for {@link #exit} */
    public static int[] enter() {
        int[] depth = DEPTH.get();
        depth[0]++;
        return depth;
    }

    public static void exit(int[] token) {
        token[0]--;
    }

    public static boolean now() {
        return DEPTH.get()[0] > 0;
    }
}
