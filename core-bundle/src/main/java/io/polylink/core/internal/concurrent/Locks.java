package io.polylink.core.internal.concurrent;

import java.util.concurrent.locks.ReentrantLock;

/**
 * How the core holds a {@link ReentrantLock} so that an Error the JVM raises late lets go of it.
 *
 * <p>The JVM raises a fault on a mapping (a file cut short under shm) as an {@link InternalError}
 * at some later point of the thread that met it: a call, a return, a loop's turn, perhaps after
 * the access returned (docs/methods.md#shm, "Faults"). A plain {@code lock(); try { … } finally
 * { release(); }} keeps the lock if the Error comes between {@code lock()}'s return and the
 * {@code try}, or at the call of {@code release()} or in its work before it unlocks; every later
 * taker then waits for good. So each region notes the thread's holds first and ends with
 * {@link #unlockTo}:
 *
 * <pre>{@code
 * int held = lock.getHoldCount();
 * try {
 *     lock.lock();
 *     try {
 *         ...
 *     } finally {
 *         release();   // any work on the way out, then unlock()
 *     }
 * } finally {
 *     Locks.unlockTo(lock, held);
 * }
 * }</pre>
 *
 * <p>The JVM raises such an Error once: if it comes before or in {@code release()}, the outer
 * {@code finally} runs clean; if it comes in that {@code finally}, {@code release()} had let go
 * already. Only inside the JDK's own {@code lock()} and {@code unlock()} can it still leave the
 * lock in a state no code can mend.
 */
public final class Locks {

    private Locks() {}

    /** Lets go of {@code lock} until the current thread holds it {@code held} times, as before it took it. */
    public static void unlockTo(ReentrantLock lock, int held) {
        while (lock.getHoldCount() > held) {
            lock.unlock();
        }
    }
}
