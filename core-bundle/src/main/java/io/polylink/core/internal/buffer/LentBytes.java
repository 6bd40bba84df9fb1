package io.polylink.core.internal.buffer;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Bytes the application lent a message ({@link io.polylink.MessageBuffer#putLent}): counted, as a
 * {@link SharedStore} is, by the buffer that holds them and by each flow that keeps an RSR sent
 * with them; the last to let go tells the application, which may then change them.
 */
public final class LentBytes {

    /** Never moved: every reader takes a {@link #view()} of its own. */
    private final ByteBuffer bytes;
    private final Runnable released;
    private final AtomicInteger holders = new AtomicInteger(1);

    LentBytes(ByteBuffer source, int offset, int length, Runnable released) {
        this.bytes = source.duplicate().clear().slice(offset, length); // limits do not count
        this.released = released;
    }

    public int length() {
        return bytes.capacity();
    }

    /** @return the lent bytes, positioned at the first, with a position and limit of the caller's own */
    public ByteBuffer view() {
        return bytes.duplicate();
    }

    /** Copies the lent bytes into {@code to} from index {@code at}. */
    void copyTo(ByteBuffer to, int at) {
        to.put(at, bytes, 0, bytes.capacity());
    }

    public void retain() {
        holders.incrementAndGet();
    }

    /**
     * Lets go of one reference; the last runs the application's callback on this thread. A
     * callback that throws is reported to the thread's uncaught-exception handler, and the thread
     * goes on: it may be receiving for every link of the context.
     */
    public void release() {
        int before = holders.getAndDecrement();
        if (before == 1) {
            try {
                released.run();
            } catch (RuntimeException e) {
                Thread t = Thread.currentThread();
                t.getUncaughtExceptionHandler().uncaughtException(t, e);
            }
        } else if (before < 1) {
            throw new IllegalStateException("lent bytes released more often than retained");
        }
    }
}
