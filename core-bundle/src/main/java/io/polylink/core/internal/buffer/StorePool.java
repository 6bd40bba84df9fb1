package io.polylink.core.internal.buffer;

import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

/**
 * The stores a context's large buffers move between, by power-of-two capacity from
 * {@link #MIN_CAPACITY}. A buffer cleared and refilled for each send takes a store while its last
 * one waits for the peer's acknowledgement: with the pool, such a stream cycles a few stores
 * instead of allocating direct memory per send, which the JVM would free only at some later
 * collection.
 *
 * <p>While stores come and go it keeps up to {@link #MAX_BYTES}, what flows may hold
 * unacknowledged; a second after the last store was given back, down to {@link #IDLE_BYTES}.
 */
public final class StorePool {

    static final int MIN_CAPACITY = 32 * 1024;
    static final long MAX_BYTES = 64L << 20;
    static final long IDLE_BYTES = 4L << 20;
    static final long SHRINK_AFTER_MS = 1000;

    private final ConcurrentLinkedDeque<SharedStore>[] byClass;
    private final AtomicLong pooledBytes = new AtomicLong();
    private final AtomicBoolean shrinkDue = new AtomicBoolean();
    private final BiConsumer<Runnable, Long> later;
    private volatile long lastGiven;

    /** @param later runs a task after a delay in milliseconds, for shrinking once idle */
    @SuppressWarnings("unchecked")
    public StorePool(BiConsumer<Runnable, Long> later) {
        this.later = later;
        byClass = new ConcurrentLinkedDeque[32];
        for (int i = 0; i < byClass.length; i++) {
            byClass[i] = new ConcurrentLinkedDeque<>();
        }
    }

    /** @return a store of at least {@code capacity} bytes, its caller the only holder */
    SharedStore take(int capacity) {
        int size = Math.max(MIN_CAPACITY, capacity);
        int c = classOf(size);
        SharedStore s = byClass[c].pollLast();
        if (s != null) {
            pooledBytes.addAndGet(-s.capacity());
            if (s.capacity() >= size) { // only not in the top class, whose stores are not rounded
                return s.taken();
            }
        }
        int rounded = 1 << c;
        return new SharedStore(this, rounded > 0 && rounded >= size ? rounded : size).taken();
    }

    /** Keeps a store no one holds any more, if there is room. */
    void give(SharedStore s) {
        if (pooledBytes.addAndGet(s.capacity()) > MAX_BYTES) {
            pooledBytes.addAndGet(-s.capacity());
            return;
        }
        byClass[classOf(s.capacity())].addLast(s);
        lastGiven = System.nanoTime();
        if (pooledBytes.get() > IDLE_BYTES && shrinkDue.compareAndSet(false, true)) {
            later.accept(this::shrink, SHRINK_AFTER_MS);
        }
    }

    long pooledBytes() {
        return pooledBytes.get();
    }

    private void shrink() {
        long idleMs = (System.nanoTime() - lastGiven) / 1_000_000;
        if (idleMs < SHRINK_AFTER_MS) {
            later.accept(this::shrink, SHRINK_AFTER_MS - idleMs);
            return;
        }
        shrinkDue.set(false);
        for (int c = byClass.length - 1; c >= 0 && pooledBytes.get() > IDLE_BYTES; c--) {
            SharedStore s;
            while (pooledBytes.get() > IDLE_BYTES && (s = byClass[c].pollFirst()) != null) {
                pooledBytes.addAndGet(-s.capacity());
            }
        }
    }

    /** @return the class of stores that fit {@code size}: the exponent of the next power of two */
    private static int classOf(int size) {
        return 32 - Integer.numberOfLeadingZeros(size - 1);
    }
}
