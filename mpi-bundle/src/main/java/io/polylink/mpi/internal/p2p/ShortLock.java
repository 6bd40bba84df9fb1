package io.polylink.mpi.internal.p2p;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A lock for critical sections of a few steps that never wait for anything: one compare-and-set
 * takes it and a release store lets it go. A monitor's exit also fences, so that it can wake a
 * parked waiter; every message takes the matcher's lock, on the thread that receives it, so that
 * fence was on the path of each one. Here nobody is woken: a thread that finds the lock taken
 * spins, then yields, then naps and looks again, which costs little because the holder lets go
 * within microseconds. Not reentrant.
 */
final class ShortLock {

    private static final VarHandle HELD;
    private static final int SPINS = 100;
    private static final int YIELDS = 1_000;
    private static final long NAP_NANOS = TimeUnit.MICROSECONDS.toNanos(50);

    static {
        try {
            HELD = MethodHandles.lookup().findVarHandle(ShortLock.class, "held", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // through HELD
    private volatile boolean held;

    void lock() {
        if (!HELD.compareAndSet(this, false, true)) {
            contended();
        }
    }

    private void contended() {
        for (int attempt = 0; ; attempt++) {
            if (!(boolean) HELD.getOpaque(this) && HELD.compareAndSet(this, false, true)) {
                return;
            }
            if (attempt < SPINS) {
                Thread.onSpinWait();
            } else if (attempt < SPINS + YIELDS) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(this, NAP_NANOS);
            }
        }
    }

    void unlock() {
        HELD.setRelease(this, false);
    }
}
