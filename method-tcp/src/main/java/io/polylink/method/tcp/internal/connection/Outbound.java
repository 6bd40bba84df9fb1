package io.polylink.method.tcp.internal.connection;

import io.polylink.LinkException;
import io.polylink.method.tcp.internal.config.TcpSettings;
import io.polylink.method.tcp.internal.loop.IoLoop;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The sending side of a connection. The caller writes straight to the socket when nothing is
 * queued (no hand-off); whatever the socket does not take goes, copied, into a queue bounded in
 * bytes that the I/O thread drains. A full queue makes the sender wait up to {@code sendTimeoutMs},
 * then fail; the I/O thread itself (a handler replying inline) flushes the queue while it waits.
 * A large frame is the exception: its sender waits for the socket and writes the rest itself
 * ({@link LargeFrameWriter}).
 *
 * <p>Senders from any thread, the I/O thread draining the queue and the timer thread's heartbeats
 * all take {@link #lock}, the send lock, which guards everything here but {@link #lastSend}. At the
 * sending end of a bulk stream a sender also reads its socket after its write ({@link Inbound}).
 */
final class Outbound {

    /** The largest staged frame: a 64 KiB payload with its prefix and the core's header. */
    private static final int MAX_STAGING = 64 * 1024 + 64;
    private static final int MIN_STAGING = 1024;
    private static final ByteBuffer HEARTBEAT = ByteBuffer.allocate(4);
    private static final ByteBuffer GOODBYE_FRAME = ByteBuffer.allocate(4).putInt(0, FrameReader.GOODBYE);
    private static final long FLUSH_PAUSE_NANOS = TimeUnit.MICROSECONDS.toNanos(50);

    private final TcpConnection connection;
    private final SocketChannel channel;
    private final IoLoop loop;
    private final Inbound in;
    private final TrafficCounts counts;
    private final TcpSettings.Link settings;
    private final int maxFrame;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition space = lock.newCondition();
    private final SendQueue queue = new SendQueue();
    /** When {@link #queue} last took bytes: its memory goes once unused for a while ({@link #releaseIdle}). */
    private long queueUsed;
    /** The staged prefix and header, then the payload: see {@link #staging}. */
    private final ByteBuffer[] gather = new ByteBuffer[2];
    /**
     * A sender is writing the rest of a large frame itself, with {@link #lock} released: nothing
     * else writes to the socket until it is done, and frames sent meanwhile queue behind it.
     */
    private boolean finishing;
    /** Made by the first sender that finishes a frame itself: a connection carrying small frames never needs it. */
    LargeFrameWriter large;
    /**
     * A frame up to {@link #MAX_STAGING} is copied here and written with one {@code write}: the JDK
     * would copy each heap buffer of a gathering write into a temporary direct buffer of its own
     * anyway, and then pay for three buffer-cache lookups and a {@code writev}. A larger frame, or
     * a large direct payload (the core's copy of a large RSR), has only its prefix and header
     * staged, and the payload goes out behind them as it is. Grown to the largest frame staged, so
     * a connection carrying small RSRs holds little, and back to its first size once no frame
     * needed more for a while ({@link #releaseIdle}).
     */
    private ByteBuffer staging = ByteBuffer.allocateDirect(MIN_STAGING);
    private long stagedLarge;
    private boolean writeInterest;

    private volatile boolean open = true;
    private volatile Throwable closeCause;
    private volatile long lastSend = System.nanoTime();

    Outbound(TcpConnection connection, SocketChannel channel, IoLoop loop, Inbound in, TrafficCounts counts,
             TcpSettings.Link settings, int maxFrame) {
        this.connection = connection;
        this.channel = channel;
        this.loop = loop;
        this.in = in;
        this.counts = counts;
        this.settings = settings;
        this.maxFrame = maxFrame;
    }

    boolean isOpen() {
        return open;
    }

    /** @return why the connection closed, {@code null} for an orderly close or while it is open */
    Throwable closeCause() {
        return closeCause;
    }

    /** @return when a frame or heartbeat last went out, or the queue last emptied */
    long lastSend() {
        return lastSend;
    }

    /**
     * On the loop: registers the channel for reads, and for writes if frames were queued before.
     *
     * @return whether it was registered: {@code false} if the socket closed first
     */
    boolean register() {
        lock.lock();
        try {
            boolean queued = !queue.isEmpty();
            boolean registered = in.register(queued ? SelectionKey.OP_WRITE : 0);
            writeInterest = registered && queued;
            return registered;
        } finally {
            lock.unlock();
        }
    }

    int stagingCapacity() {
        lock.lock();
        try {
            return staging.capacity();
        } finally {
            lock.unlock();
        }
    }

    long queuedBytes() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    /** See {@link io.polylink.spi.Connection#send}. */
    void send(ByteBuffer header, ByteBuffer payload) {
        int length = frameLength(header, payload);
        boolean onLoop = loop.inLoop();
        boolean finish;
        lock.lock();
        try {
            checkOpen();
            if (finishing || !queue.isEmpty()) {
                awaitSpace(4L + length);
            }
            boolean reading = !onLoop && in.trySenderRead();
            try {
                finish = writeOrQueue(header, payload, length, !onLoop && settings.sendTimeoutMs() > 0);
                if (reading) {
                    in.readAsideIfWanted();
                }
            } finally {
                if (reading) {
                    in.releaseSenderRead();
                }
            }
            if (finish) {
                startFinishing();
            }
        } catch (IOException e) {
            throw failed(e);
        } finally {
            gather[0] = gather[1] = null;
            lock.unlock();
        }
        if (finish) {
            finishFrame();
        }
    }

    /** See {@link io.polylink.spi.Connection#trySend}. */
    boolean trySend(ByteBuffer header, ByteBuffer payload) {
        int length = frameLength(header, payload);
        if (!lock.tryLock()) {
            return false;
        }
        try {
            checkOpen();
            if (!queue.isEmpty() && queue.size() + 4L + length > settings.queueLimit()) {
                return false;
            }
            writeOrQueue(header, payload, length, false);
            return true;
        } catch (IOException e) {
            throw failed(e);
        } finally {
            gather[0] = gather[1] = null;
            lock.unlock();
        }
    }

    private int frameLength(ByteBuffer header, ByteBuffer payload) {
        int length = header.remaining() + payload.remaining();
        if (length > maxFrame) {
            throw new LinkException("frame of " + length + " bytes to " + connection + " exceeds the maximum of "
                + maxFrame);
        }
        return length;
    }

    private LinkException failed(IOException e) {
        connection.fail(e);
        return new LinkException(connection + " failed: " + e.getMessage(), e);
    }

    /**
     * Writes what the socket takes now, behind anything queued, and queues the rest; lock held.
     *
     * @param mayFinish whether the caller may write the rest of a large frame itself
     * @return whether it is to ({@link #startFinishing}): the frame is counted as sent, and the
     *     rest of it left in {@link #gather}
     */
    private boolean writeOrQueue(ByteBuffer header, ByteBuffer payload, int length, boolean mayFinish)
            throws IOException {
        boolean largeDirect = payload.isDirect() && payload.remaining() > MIN_STAGING;
        boolean idle = queue.isEmpty() && !finishing;
        if (idle && 4 + length <= MAX_STAGING && !largeDirect) {
            ByteBuffer frame = staging(4 + length).putInt(length).put(header).put(payload).flip();
            channel.write(frame);
            if (frame.hasRemaining()) {
                queue.add(frame);
                queued();
            }
            sent(length);
            if (4 + length > MIN_STAGING) {
                stagedLarge = lastSend;
            }
            return false;
        }
        gather[0] = staging(4 + header.remaining()).putInt(length).put(header).flip();
        gather[1] = payload;
        if (idle) {
            channel.write(gather);
            if (!payload.hasRemaining()) {
                sent(length);
                return false;
            }
            if (mayFinish) {
                sent(length);
                return true;
            }
        }
        enqueueRest(length);
        return false;
    }

    /** Hands the rest of the frame in {@link #gather} to {@link #large}; lock held. */
    private void startFinishing() throws IOException {
        if (large == null) {
            large = new LargeFrameWriter(channel, in);
        }
        large.take(gather[0], gather[1]);
        finishing = true;
    }

    /**
     * The sender writes the rest of its large frame with the lock released, so the loop can still
     * queue replies and acknowledgements (see docs/performance-notes.md#tcp-senders-finish-large-frames).
     * If the socket takes nothing for {@code sendTimeoutMs}, the rest goes to the front of the
     * queue and the send returns, so a stalled receiver meets the queue's bound as with smaller frames.
     */
    private void finishFrame() {
        IOException failure = null;
        try {
            large.write(TimeUnit.MILLISECONDS.toNanos(settings.sendTimeoutMs()), this);
        } catch (IOException e) {
            failure = e;
        }
        lock.lock();
        try {
            finishing = false;
            if (failure == null && open) {
                large.requeueRest(queue);
            }
            if (open && !queue.isEmpty()) {
                queued();
            }
            space.signalAll();
        } finally {
            large.clear();
            lock.unlock();
        }
        if (failure != null) {
            throw failed(failure);
        }
        checkOpen();
    }

    /** @return {@link #staging}, cleared, grown by doubling if {@code bytes} do not fit; lock held */
    private ByteBuffer staging(int bytes) {
        if (bytes > staging.capacity()) {
            staging = ByteBuffer.allocateDirect(Math.min(MAX_STAGING, Math.max(bytes, 2 * staging.capacity())));
        }
        return staging.clear();
    }

    /** Queues what is left of {@link #gather}; lock held. */
    private void enqueueRest(int length) {
        queue.add(gather[0]);
        queue.add(gather[1]);
        queued();
        sent(length);
    }

    /** Has the I/O thread drain what was just queued; lock held. */
    private void queued() {
        queueUsed = System.nanoTime();
        loop.queued(queueUsed);
        if (!writeInterest && !finishing) {
            writeInterest = true;
            loop.execute(this::enableWrite);
        }
    }

    private void sent(int length) {
        in.noteSend();
        counts.sent(length);
        lastSend = System.nanoTime();
    }

    private void awaitSpace(long needed) throws IOException {
        long waitNanos = TimeUnit.MILLISECONDS.toNanos(settings.sendTimeoutMs());
        long deadline = System.nanoTime() + waitNanos;
        boolean onLoop = loop.inLoop();
        while (open && (finishing && !onLoop || !queue.isEmpty() && queue.size() + needed > settings.queueLimit())) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                counts.error();
                throw new LinkException((finishing ? "a large frame to " + connection + " was still being written"
                    : "send queue to " + connection + " is full (" + queue.size() + " of " + settings.queueLimit()
                    + " bytes)") + " for " + settings.sendTimeoutMs() + " ms; the receiver is slow or stalled");
            }
            if (onLoop) {
                // Only this thread drains the queue, so it writes it out itself (or, while a sender
                // is finishing a frame, waits for it to hand the socket back). Meanwhile it reads
                // nothing, and TCP pushes back on whoever is sending to this context: backpressure
                // travels up a chain of relays instead of frames being dropped at the full hop.
                writeQueued();
                if (!queue.isEmpty() && queue.size() + needed > settings.queueLimit()) {
                    LockSupport.parkNanos(FLUSH_PAUSE_NANOS);
                }
                continue;
            }
            try {
                space.awaitNanos(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LinkException("interrupted while waiting to send to " + connection, e);
            }
        }
        checkOpen();
    }

    private void checkOpen() {
        if (!open) {
            throw new LinkException(connection + " is closed" + (closeCause == null ? "" : ": " + closeCause.getMessage()));
        }
    }

    /**
     * From the timer thread: sends a heartbeat at {@code now}, unless a frame is under way or queued.
     *
     * @return {@code false} if a sender holds the lock (and is about to move {@link #lastSend}):
     *     ask again soon
     */
    boolean heartbeat(long now) {
        if (!lock.tryLock()) {
            return false;
        }
        try {
            if (open && queue.isEmpty() && !finishing) {
                writeHeartbeat(now);
            }
        } catch (IOException e) {
            connection.fail(e);
        } finally {
            lock.unlock();
        }
        return true;
    }

    /**
     * From any thread: writes a heartbeat, or as much of the queue as the socket takes, so a
     * socket whose other end is gone fails: its peer's kernel answers the bytes with a reset, and
     * the next write fails. Nothing if a sender holds the lock or is finishing a frame: its own
     * write fails then.
     *
     * @return whether the connection is still open
     */
    boolean probe() {
        if (!lock.tryLock()) {
            return open;
        }
        try {
            if (open && !finishing) {
                if (queue.isEmpty()) {
                    writeHeartbeat(System.nanoTime());
                } else {
                    writeQueued();
                }
            }
        } catch (IOException e) {
            connection.fail(e);
        } finally {
            lock.unlock();
        }
        return open;
    }

    /** Lock held, nothing queued. */
    private void writeHeartbeat(long now) throws IOException {
        ByteBuffer beat = HEARTBEAT.duplicate();
        channel.write(beat);
        if (beat.hasRemaining()) {
            queue.add(beat);
            queued();
        }
        lastSend = now;
    }

    private void enableWrite() {
        SelectionKey key = in.key();
        if (key != null && key.isValid()) {
            key.interestOpsOr(SelectionKey.OP_WRITE);
        }
    }

    /** On the loop, when the socket has room: writes what is queued. */
    void drain() throws IOException {
        lock.lock();
        try {
            if (finishing || writeQueued()) {
                // Empty, or a sender is finishing a frame: it asks for the loop again when done.
                writeInterest = false;
                in.key().interestOpsAnd(~SelectionKey.OP_WRITE); // reads may be off: Inbound's parking, IoLoop's unwatched hot key
            }
        } finally {
            lock.unlock();
        }
    }

    /** Writes what the socket takes of the queue; lock held. @return whether the queue is empty */
    private boolean writeQueued() throws IOException {
        if (finishing) {
            return false;
        }
        if (queue.writeTo(channel) > 0) {
            space.signalAll();
        }
        if (!queue.isEmpty()) {
            return false; // one gathering write offered all of it: the socket is full
        }
        lastSend = System.nanoTime();
        return true;
    }

    /** On the loop: lets the queue's memory and a grown staging buffer go once unused for {@code idleNanos}. */
    void releaseIdle(long now, long idleNanos) {
        // The sending side's buffers are the senders' too: only if no sender holds the lock now.
        if ((now - queueUsed > idleNanos || now - stagedLarge > idleNanos) && lock.tryLock()) {
            try {
                if (queue.capacity() > 0 && now - queueUsed > idleNanos) {
                    queue.release();
                }
                if (staging.capacity() > MIN_STAGING && now - stagedLarge > idleNanos) {
                    staging = ByteBuffer.allocateDirect(MIN_STAGING);
                }
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Stops sending: says goodbye if asked to and no frame is half on the wire, drops what is
     * queued, and wakes senders waiting for room, who then fail.
     *
     * @param cause why, or {@code null} for an orderly close
     * @return whether this stopped it: {@code false} if it was stopped already
     */
    boolean stop(Throwable cause, boolean sayGoodbye) {
        lock.lock();
        try {
            if (!open) {
                return false;
            }
            // Only between frames: with bytes queued, a frame may be half on the wire already.
            if (sayGoodbye && queue.isEmpty() && !finishing) {
                try {
                    channel.write(GOODBYE_FRAME.duplicate());
                } catch (IOException e) {
                    // the peer is gone already; it learns of the close from the socket, as of a crash
                }
            }
            closeCause = cause;
            open = false;
            queue.clear();
            queue.release();
            space.signalAll();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** After {@link #stop} and the socket's close: wakes a sender finishing a frame, and lets go of what it holds. */
    void release() {
        LargeFrameWriter writer;
        lock.lock();
        try {
            writer = large;
        } finally {
            lock.unlock();
        }
        if (writer != null) {
            writer.close();
        }
    }
}
