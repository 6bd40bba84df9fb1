package io.polylink.tck;

import io.polylink.spi.Connection;
import io.polylink.spi.FrameReceiver;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * What the kit's context does with one connection's frames: keeps a copy of each, can hold the
 * method's receiving thread (a stalled receiver) and can call a frame malformed, as the core
 * would; and notes each close, with its cause and thread.
 */
final class RecordingReceiver implements FrameReceiver {

    /** How long a stalled receiver holds the method's thread at most, should a test not let it go. */
    private static final long STALL_LIMIT_SECONDS = 60;

    final Connection connection;
    /** Guarded by this. */
    private final List<byte[]> frames = new ArrayList<>();
    private final AtomicInteger closes = new AtomicInteger();
    private final CountDownLatch closed = new CountDownLatch(1);
    private final Predicate<byte[]> malformed;
    private volatile CountDownLatch stall;
    private volatile Throwable closeCause;
    private volatile String closeThread;

    /** @param malformed the frames to refuse as malformed */
    RecordingReceiver(Connection connection, Predicate<byte[]> malformed) {
        this.connection = connection;
        this.malformed = malformed;
    }

    @Override
    public boolean onFrame(ByteBuffer frame) {
        byte[] copy = new byte[frame.remaining()];
        frame.get(copy);
        CountDownLatch s = stall;
        if (s != null) {
            try {
                s.await(STALL_LIMIT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (this) {
            frames.add(copy);
            notifyAll();
        }
        return !malformed.test(copy);
    }

    @Override
    public void onClosed(Throwable cause) {
        closeCause = cause;
        closeThread = Thread.currentThread().getName();
        closes.incrementAndGet();
        closed.countDown();
    }

    /** Holds the method's receiving thread in the next {@link #onFrame} until {@link #release}. */
    void stall() {
        stall = new CountDownLatch(1);
    }

    void release() {
        CountDownLatch s = stall;
        stall = null;
        if (s != null) {
            s.countDown();
        }
    }

    /** @return the frames received so far, in order */
    synchronized List<byte[]> frames() {
        return List.copyOf(frames);
    }

    /** @return the frames, once at least {@code count} came; or throws naming how many did */
    synchronized List<byte[]> awaitFrames(int count, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (frames.size() < count) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError(frames.size() + " of " + count + " frames arrived on " + connection
                    + " within " + limit + (closes.get() > 0 ? "; it closed: " + closeCause : ""));
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return List.copyOf(frames);
    }

    /** @return whether the receiver was told of a close within {@code limit} */
    boolean awaitClosed(Duration limit) throws InterruptedException {
        return closed.await(limit.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** @return how often {@link #onClosed} was called */
    int closes() {
        return closes.get();
    }

    Throwable closeCause() {
        return closeCause;
    }

    /** @return the thread that called {@link #onClosed}, or {@code null} */
    String closeThread() {
        return closeThread;
    }
}
