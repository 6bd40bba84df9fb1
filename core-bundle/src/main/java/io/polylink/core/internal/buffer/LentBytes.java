package io.polylink.core.internal.buffer;

import java.nio.ByteBuffer;

/**
 * Bytes the application lent a message ({@link io.polylink.MessageBuffer#putLent}): counted, as a
 * {@link SharedStore} is, by the buffer that holds them and by each flow that keeps an RSR sent
 * with them; the last to let go tells the application, which may then change them.
 */
public final class LentBytes extends Holders {

    /** Never moved: every reader takes a {@link #view()} of its own. */
    private final ByteBuffer bytes;
    private final Runnable released;

    LentBytes(ByteBuffer source, int offset, int length, Runnable released) {
        this.bytes = source.duplicate().clear().slice(offset, length); // limits do not count
        this.released = released;
        holdAlone(); // the buffer that lends them
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

    /**
     * Runs the application's callback. One that throws is reported to the thread's
     * uncaught-exception handler, and the thread goes on: it may be receiving for every link of
     * the context.
     */
    @Override
    void lastLetGo() {
        try {
            released.run();
        } catch (RuntimeException e) {
            Thread t = Thread.currentThread();
            t.getUncaughtExceptionHandler().uncaughtException(t, e);
        }
    }

    @Override
    public String toString() {
        return bytes.capacity() + " lent bytes";
    }
}
