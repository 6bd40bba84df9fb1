package io.polylink.method.tcp.internal;

import io.polylink.ContextId;
import io.polylink.LinkException;
import io.polylink.Statistics;
import io.polylink.spi.Connection;
import io.polylink.spi.FrameReceiver;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An established tcp connection to one peer context.
 *
 * <p>Sending: the caller writes straight to the socket when nothing is queued (no hand-off);
 * whatever the socket does not take goes, copied, into a queue bounded in bytes that the I/O
 * thread drains. A full queue makes the sender wait up to {@code sendTimeoutMs}, then fail; the
 * I/O thread itself (a handler replying inline) flushes the queue while it waits. A large frame
 * is the exception: its sender waits for the socket and writes the rest itself
 * ({@link #finishFrame}).
 *
 * <p>Receiving, on the I/O thread: frames out of a {@link FrameReader}, handed to the core in
 * place.
 *
 * <p>Reads shared with a sender, at the sending end of a bulk stream: the socket's reads and
 * writes take one kernel lock, and the I/O thread reading an acknowledgement while a sender wrote
 * slept for that lock thousands of times a second, and its wake-ups took the core the receiver
 * needed. So while the connection sends in bulk ({@link #sharedReads}), a sender holds
 * {@link #readLock} through its write, and the loop, finding it held, leaves the socket to that
 * sender, which reads after its write and offers the frames to the core
 * ({@link FrameReceiver#offerAside}). The core takes acknowledgements there; at the first frame
 * it declines, the sender hands the rest back to the loop, which delivers it and reads alone again.
 */
final class TcpConnection implements Connection, IoHandler, FrameReader.Sink {

    /** The largest staged frame: a 64 KiB payload with its prefix and the core's header. */
    private static final int MAX_STAGING = 64 * 1024 + 64;
    private static final int MIN_STAGING = 1024;
    /** A frame in flight may take this long per MiB beyond the failure timeout, for slow links. */
    private static final long NANOS_PER_MIB = TimeUnit.SECONDS.toNanos(1);
    private static final ByteBuffer HEARTBEAT = ByteBuffer.allocate(4);
    /** Nothing: never moves, so threads may share it. */
    private static final ByteBuffer EMPTY = ByteBuffer.allocateDirect(0);
    private static final ByteBuffer GOODBYE_FRAME = ByteBuffer.allocate(4).putInt(0, FrameReader.GOODBYE);
    private static final long FLUSH_PAUSE_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    private static final long SPARE_IDLE_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** At most this many frames sent between two reads make a conversation. */
    private static final int CONVERSATION_SENDS = 2;
    /**
     * Sent between two reads, this much makes a connection the sending end of a bulk stream. The
     * core asks for an acknowledgement every 4-16 MiB of large RSRs, while a conversation of 1 MiB
     * messages sends one between reads.
     */
    static final long BULK_BYTES = 2L << 20;
    private static final long BUSY_BEAT_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final TcpMethod method;
    private final SocketChannel channel;
    private final ContextId peer;
    private final boolean dialledByPeer;
    private final InetSocketAddress remote;
    private final TcpSettings.Link settings;
    private final int connectionClass;
    private final int maxFrame;
    private volatile FrameReceiver receiver;
    /** The receiver heard of the close: from {@link #close} or, if it closed first, {@link #start}. */
    private final AtomicBoolean told = new AtomicBoolean();
    private SelectionKey key;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition space = lock.newCondition();
    private final SendQueue queue = new SendQueue();
    /** When {@link #queue} last took bytes: its memory goes after {@link #SPARE_IDLE_NANOS} unused. */
    private long queueUsed;
    /** The staged prefix and header, then the payload: see {@link #staging}. */
    private final ByteBuffer[] gather = new ByteBuffer[2];
    /**
     * A sender is writing the rest of a large frame itself, with {@link #lock} released: nothing
     * else writes to the socket until it is done, and frames sent meanwhile queue behind it.
     */
    private boolean finishing;
    /** The frame {@link #finishing} writes: what is left of its prefix and header, and its payload. */
    private final ByteBuffer[] rest = new ByteBuffer[2];
    /**
     * Where a sender {@link #finishing} a frame waits for room in the socket, as a blocking write
     * would; opened by the first, under {@link #lock}, and closed with the connection.
     */
    private Selector writable;
    /**
     * A frame up to {@link #MAX_STAGING} is copied here and written with one {@code write}: the JDK
     * would copy each heap buffer of a gathering write into a temporary direct buffer of its own
     * anyway, and then pay for three buffer-cache lookups and a {@code writev}. A larger frame, or
     * a large direct payload (the core's copy of a large RSR), has only its prefix and header
     * staged, and the payload goes out behind them as it is. Grown to the largest frame staged, so
     * a connection carrying small RSRs holds little, and back to its first size after
     * {@link #SPARE_IDLE_NANOS} without a frame that needed more.
     */
    private ByteBuffer staging = ByteBuffer.allocateDirect(MIN_STAGING);
    private long stagedLarge;
    private boolean writeInterest;

    private final FrameReader reader;
    private long partialSince;
    /**
     * Taken by whoever reads while {@link #sharedReads}: the loop by {@code tryLock}, a sender by
     * {@code tryLock} around its write, and the loop's timers by {@code lock}. Guards the
     * receiving side's state then; a sender holds it only for a non-blocking write and read.
     */
    private final ReentrantLock readLock = new ReentrantLock();
    /**
     * Whether senders may read: set by the loop when it last read, in bulk, with no other thread
     * able to read yet; cleared under {@link #readLock}, by the loop or a sender handing back.
     */
    private volatile boolean sharedReads;
    /** The loop found bytes to read but {@link #readLock} held: the sender holding it reads them. */
    private volatile boolean readWanted;
    /**
     * The loop took {@code OP_READ} off the key while a sender held {@link #readLock}: the socket
     * stays readable until that sender reads, and the loop, woken by it again and again, polled
     * about 280 times per acknowledgement of a 1 MiB stream. Whoever lets go of the lock next
     * gives reads back ({@link #unparkReads}).
     */
    private final AtomicBoolean readsParked = new AtomicBoolean();
    /** Times the loop found {@link #readLock} held when it came to read; for tests. Written by the loop only. */
    private volatile long readsFoundHeld;
    /** A sender left bytes in {@link #reader} for the loop, which parses them without a read. */
    private boolean handedBack;
    private final Runnable resumeReading = this::resumeReading;
    /** Frames senders read that the core took, and times they handed frames back; for tests. */
    private volatile long takenAside;
    private volatile long handBacks;
    /** Frames whose senders wrote the rest themselves; for tests. */
    private volatile long finished;

    private volatile boolean open = true;
    private volatile long lastSend = System.nanoTime();
    /**
     * Whether this connection carries a conversation, for {@link #pollable}: frames sent since
     * bytes last came in, and frames received between the last two sends. Sends count under
     * {@link #lock}, reads on the loop without it: a count lost to that race only changes the
     * loop's choice for a turn.
     */
    private int sendsSinceRead;
    private int framesSinceSend;
    private int framesBetweenSends;
    /** The bytes sent at the last read, and between the last two reads; loop thread only. */
    private long sentAtRead;
    private long sentBetweenReads;
    /**
     * When bytes last came; loop thread only, like the rest of the receiving side. Not volatile, as
     * that would cost a locked instruction per read.
     */
    private long lastReceive = System.nanoTime();
    private final TrafficCounts counts = new TrafficCounts();

    /** @param dialledByPeer whether the peer dialled it, rather than this side */
    TcpConnection(TcpMethod method, SocketChannel channel, ContextId peer, TcpSettings.Link settings,
                  int connectionClass, int maxFrame, boolean dialledByPeer) throws IOException {
        this.method = method;
        this.dialledByPeer = dialledByPeer;
        this.channel = channel;
        this.peer = peer;
        this.remote = (InetSocketAddress) channel.getRemoteAddress();
        this.settings = settings;
        this.connectionClass = connectionClass;
        this.maxFrame = maxFrame;
        this.reader = new FrameReader(maxFrame);
    }

    boolean dialledByPeer() {
        return dialledByPeer;
    }

    /** Hands the connection to the core and the loop; call once, before any frame is read. */
    void start(FrameReceiver receiver, IoLoop loop) {
        this.receiver = receiver;
        if (!open) {
            // Published before it started, and a send on it failed meanwhile: the core, which may
            // have links on it already, still has to hear of it.
            tellClosed(closeCause);
            return;
        }
        Runnable register = () -> {
            if (!open) {
                return;
            }
            boolean registered;
            lock.lock();
            try {
                key = loop.register(channel, SelectionKey.OP_READ | (queue.isEmpty() ? 0 : SelectionKey.OP_WRITE), this);
                registered = key != null;
                writeInterest = registered && !queue.isEmpty();
            } finally {
                lock.unlock();
            }
            if (!registered) {
                fail(new ClosedChannelException()); // the socket closed before it was registered
            }
        };
        if (loop.inLoop()) {
            register.run();
        } else {
            loop.execute(register);
        }
    }

    /** The loop was away for {@code nanos}: the peer could not have been heard meanwhile. */
    void excuse(long nanos) {
        boolean shared = lockShared();
        try {
            lastReceive += nanos;
            if (partialSince != 0) {
                partialSince += nanos;
            }
        } finally {
            unlockShared(shared);
        }
    }

    /**
     * On the loop: takes {@link #readLock} if reads are shared now, waiting out a sender's write.
     *
     * @return whether it took the lock, for {@link #unlockShared}
     */
    private boolean lockShared() {
        if (!sharedReads) {
            return false;
        }
        readLock.lock();
        return true;
    }

    private void unlockShared(boolean locked) {
        if (locked) {
            readLock.unlock();
        }
    }

    /** A sender lets go of {@link #readLock}, giving reads back to the loop if it parked them. */
    private void unlockRead() {
        readLock.unlock();
        if (readsParked.get()) {
            unparkReads();
        }
    }

    /** Any thread: gives {@code OP_READ} back to the key, once per parking, and wakes the loop to see it. */
    private void unparkReads() {
        if (!readsParked.compareAndSet(true, false)) {
            return;
        }
        try {
            key.interestOpsOr(SelectionKey.OP_READ);
        } catch (CancelledKeyException closedMeanwhile) {
            return; // nothing left to read
        }
        method.loop().wake(); // a blocked selector registers the change only when it next wakes
    }

    int connectionClass() {
        return connectionClass;
    }

    @Override
    public ContextId peer() {
        return peer;
    }

    @Override
    public String method() {
        return TcpMethod.NAME;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    /** @return the read buffer's size, as its reader last set it */
    int readCapacity() {
        return reader.readCapacity();
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

    // ---- sending

    @Override
    public void send(ByteBuffer header, ByteBuffer payload) {
        int length = frameLength(header, payload);
        boolean onLoop = method.loop().inLoop();
        boolean finish;
        lock.lock();
        try {
            checkOpen();
            if (finishing || !queue.isEmpty()) {
                awaitSpace(4L + length);
            }
            boolean reading = sharedReads && !onLoop && readLock.tryLock();
            try {
                finish = writeOrQueue(header, payload, length, !onLoop && settings.sendTimeoutMs() > 0);
                if (reading && readWanted) {
                    readAside();
                }
            } finally {
                if (reading) {
                    unlockRead();
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

    @Override
    public boolean trySend(ByteBuffer header, ByteBuffer payload) {
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
            throw new LinkException("frame of " + length + " bytes to " + this + " exceeds the maximum of " + maxFrame);
        }
        return length;
    }

    private LinkException failed(IOException e) {
        fail(e);
        return new LinkException(this + " failed: " + e.getMessage(), e);
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

    /** Takes the rest of the frame in {@link #gather} for {@link #finishFrame}; lock held. */
    private void startFinishing() throws IOException {
        if (writable == null) {
            writable = Selector.open();
            try {
                channel.register(writable, SelectionKey.OP_WRITE);
            } catch (IOException | RuntimeException e) {
                writable.close();
                writable = null;
                throw e instanceof IOException io ? io : new IOException(e);
            }
        }
        ByteBuffer head = gather[0];
        // The staging buffer is the next sender's, from the moment the lock goes: what is left of
        // the prefix and header moves out of it, and it is never written from without the lock.
        rest[0] = head.hasRemaining() ? ByteBuffer.allocate(head.remaining()).put(head).flip() : EMPTY;
        rest[1] = gather[1];
        finishing = true;
    }

    /**
     * Writes the rest of a large frame on the sending thread, waiting for room in the socket as a
     * blocking write would, with the lock released so the loop can still queue replies and
     * acknowledgements. Handing the rest to the I/O thread, as smaller frames are, copied it
     * once more and then waited for the loop to hear of the room and write it: measured at 1 MiB,
     * the sender waited 1-10 ms at a time in the queue's bound. If the socket takes nothing for
     * {@code sendTimeoutMs}, the rest goes to the front of the queue and the send returns, so a
     * stalled receiver meets the queue's bound as before.
     */
    private void finishFrame() {
        IOException failure = null;
        long quiet = TimeUnit.MILLISECONDS.toNanos(settings.sendTimeoutMs());
        try {
            long progressed = System.nanoTime();
            while (open && rest[1].hasRemaining()) {
                long left = quiet - (System.nanoTime() - progressed);
                if (left <= 0) {
                    break;
                }
                writable.select(k -> { }, Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                if (writeRest() > 0) {
                    progressed = System.nanoTime();
                }
            }
        } catch (IOException e) {
            failure = e;
        } catch (ClosedSelectorException closedMeanwhile) {
            // the connection closed: said below
        }
        lock.lock();
        try {
            finishing = false;
            finished++; // under lock
            if (failure == null && open && rest[1].hasRemaining()) {
                queue.addFirst(rest);
            }
            if (open && !queue.isEmpty()) {
                queued();
            }
            space.signalAll();
        } finally {
            rest[0] = rest[1] = null;
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
        method.loop().queued(queueUsed);
        if (!writeInterest && !finishing) {
            writeInterest = true;
            method.loop().execute(this::enableWrite);
        }
    }

    private void sent(int length) {
        sendsSinceRead++;
        framesBetweenSends = framesSinceSend;
        framesSinceSend = 0;
        counts.sent(length);
        lastSend = System.nanoTime();
    }

    private void awaitSpace(long needed) throws IOException {
        long waitNanos = TimeUnit.MILLISECONDS.toNanos(settings.sendTimeoutMs());
        long deadline = System.nanoTime() + waitNanos;
        boolean onLoop = method.loop().inLoop();
        while (open && (finishing && !onLoop || !queue.isEmpty() && queue.size() + needed > settings.queueLimit())) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                counts.error();
                throw new LinkException((finishing ? "a large frame to " + this + " was still being written"
                    : "send queue to " + this + " is full (" + queue.size() + " of " + settings.queueLimit()
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
                throw new LinkException("interrupted while waiting to send to " + this, e);
            }
        }
        checkOpen();
    }

    private void checkOpen() {
        if (!open) {
            throw new LinkException(this + " is closed" + (closeCause == null ? "" : ": " + closeCause.getMessage()));
        }
    }

    /**
     * Sends a heartbeat if nothing else went out lately; from the method's timer thread.
     *
     * @return nanoseconds until this connection needs the timer again
     */
    long heartbeat(long now) {
        if (!open) {
            return Long.MAX_VALUE;
        }
        long interval = TimeUnit.MILLISECONDS.toNanos(settings.heartbeatIntervalMs());
        long quiet = now - lastSend;
        if (quiet < interval) {
            return interval - quiet;
        }
        if (!lock.tryLock()) {
            return BUSY_BEAT_RETRY_NANOS; // a sender holds it, and is about to move lastSend
        }
        try {
            if (open && queue.isEmpty() && !finishing) {
                ByteBuffer beat = HEARTBEAT.duplicate();
                channel.write(beat);
                if (beat.hasRemaining()) {
                    queue.add(beat);
                    queued();
                }
                lastSend = now;
            }
        } catch (IOException e) {
            fail(e);
        } finally {
            lock.unlock();
        }
        return interval;
    }

    private void enableWrite() {
        if (key != null && key.isValid()) {
            key.interestOpsOr(SelectionKey.OP_WRITE);
        }
    }

    private void drain() throws IOException {
        lock.lock();
        try {
            if (finishing || writeQueued()) {
                // Empty, or a sender is finishing a frame: it asks for the loop again when done.
                writeInterest = false;
                key.interestOpsAnd(~SelectionKey.OP_WRITE); // reads may be off: readsParked, IoLoop's unwatched hot key
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

    /**
     * Writes what the socket takes of the frame being finished; at the sending end of a bulk
     * stream holding {@link #readLock} and reading aside after, as {@link #send} does, so the
     * loop's reads of acknowledgements do not wait for these writes in the socket's lock. Not
     * while waiting for room: then the loop reads.
     */
    private long writeRest() throws IOException {
        boolean reading = sharedReads && readLock.tryLock();
        try {
            long written = channel.write(rest);
            if (reading && readWanted) {
                readAside();
            }
            return written;
        } finally {
            if (reading) {
                unlockRead();
            }
        }
    }

    // ---- receiving, on the I/O thread

    @Override
    public boolean ready(SelectionKey key) {
        return serve(key.readyOps());
    }

    /**
     * Only in a conversation: one or two frames sent since bytes last came in, and one or two
     * received between the last two sends. A socket read takes the socket's lock, and reads
     * spinning on either end of a stream held it up: 1 KiB streams ran 35% slower.
     */
    @Override
    public boolean pollable() {
        int sends = sendsSinceRead;
        int frames = framesBetweenSends;
        return sends > 0 && sends <= CONVERSATION_SENDS && frames > 0 && frames <= CONVERSATION_SENDS;
    }

    @Override
    public boolean sendsInBulk() {
        return sentBetweenReads >= BULK_BYTES;
    }

    @Override
    public boolean poll() {
        return serve(SelectionKey.OP_READ);
    }

    /** @return whether the socket took queued bytes, or bytes other than heartbeats came */
    private boolean serve(int ops) {
        try {
            boolean writable = (ops & SelectionKey.OP_WRITE) != 0;
            if (writable) {
                drain();
            }
            boolean traffic = (ops & SelectionKey.OP_READ) != 0 && open && read() == Read.TRAFFIC;
            return traffic || writable;
        } catch (CancelledKeyException closedMeanwhile) {
            // another thread closed the connection; it has told the core already
        } catch (IOException e) {
            fail(e);
        } catch (ProtocolException e) {
            counts.error();
            fail(e); // the core logs why, naming this connection
        }
        return false;
    }

    /** What a {@link #read} found: traffic keeps the loop spinning, heartbeats only keep the peer alive. */
    enum Read { NOTHING, HEARTBEATS, TRAFFIC }

    /**
     * On the loop. While reads are shared and a sender holds {@link #readLock}, reads nothing and
     * leaves the bytes to that sender.
     *
     * @return whether any bytes came, and whether any were more than heartbeats
     */
    Read read() throws IOException {
        if (!sharedReads) {
            return readOwn();
        }
        if (!readLock.tryLock()) {
            readWanted = true;
            readsFoundHeld++;
            // Cleared first and flagged after, so that whoever sees the flag finds them cleared;
            // the lock is tried again in case its holder let go before the flag was up.
            key.interestOpsAnd(~SelectionKey.OP_READ);
            readsParked.set(true);
            if (!readLock.tryLock()) {
                return Read.NOTHING;
            }
            unparkReads();
        }
        try {
            return readOwn();
        } finally {
            readLock.unlock();
        }
    }

    private Read readOwn() throws IOException {
        int n = reader.read(channel);
        if (n < 0) {
            throw new EOFException("peer closed the connection");
        }
        if (n == 0 && !handedBack) {
            return Read.NOTHING;
        }
        handedBack = false;
        sendsSinceRead = 0;
        long sent = counts.bytesSent();
        sentBetweenReads = sent - sentAtRead;
        sentAtRead = sent;
        long framesBefore = counts.framesReceived();
        boolean wide = reader.parse(n, this);
        // Taken once the frames went to the core, not before: an inline handler's reply goes out
        // a clock read sooner.
        lastReceive = System.nanoTime();
        if (wide) {
            reader.usedWide(lastReceive);
        }
        // The clock runs for the frame now incomplete: it restarts whenever one completes, so a
        // steady stream (whose reads mostly end mid-frame) never looks like a peer dribbling.
        boolean partial = reader.partial();
        boolean progressed = counts.framesReceived() != framesBefore;
        partialSince = !partial ? 0 : progressed || partialSince == 0 ? lastReceive : partialSince;
        boolean bulk = open && sentBetweenReads >= BULK_BYTES;
        if (bulk != sharedReads) {
            sharedReads = bulk; // last: once set, a sender may read
        }
        return progressed || partial ? Read.TRAFFIC : Read.HEARTBEATS;
    }

    /**
     * A sender's read, after its write, with {@link #readLock} held: offers whole frames to the
     * core until it declines one, and hands what is left back to the loop. A read error or the end
     * of the stream is left to the loop too, which sees the socket ready and fails the connection.
     */
    private void readAside() {
        readWanted = false;
        if (!sharedReads || !open || handedBack) {
            return;
        }
        FrameReader.Aside read;
        long framesBefore = counts.framesReceived();
        try {
            read = reader.readAside(channel, receiver, counts);
        } catch (IOException e) {
            return;
        }
        if (read == FrameReader.Aside.NOTHING_READ) {
            return;
        }
        lastReceive = System.nanoTime();
        takenAside += counts.framesReceived() - framesBefore; // under readLock
        if (read == FrameReader.Aside.LEFT_FOR_LOOP) {
            handedBack = true;
            handBacks++; // under readLock
            sharedReads = false;
            method.loop().execute(resumeReading);
        }
    }

    /** @return frames senders read that the core took aside; for tests */
    long takenAside() {
        return takenAside;
    }

    /** @return how often a sender handed what it read back to the loop; for tests */
    long handBacks() {
        return handBacks;
    }

    /**
     * Has the next sender that holds {@link #readLock} read after its write, as when the loop
     * found it held; for tests, whose streams otherwise meet that moment only now and then.
     */
    void wantReadAside() {
        readWanted = true;
    }

    /** @return whether the loop left reads to a sender holding {@link #readLock}; for tests */
    boolean readsParked() {
        return readsParked.get();
    }

    /** @return times the loop came to read and found a sender holding {@link #readLock}; for tests */
    long readsFoundHeld() {
        return readsFoundHeld;
    }

    /**
     * Runs {@code during} holding {@link #readLock} with reads shared, as a sender holds it through
     * a write, and lets go as a sender does; for tests.
     */
    void holdingReads(Runnable during) {
        readLock.lock();
        try {
            sharedReads = true;
            during.run();
        } finally {
            unlockRead();
        }
    }

    /** @return frames whose senders wrote the rest themselves; for tests */
    long finished() {
        return finished;
    }

    /** On the loop: delivers what a sender handed back, and reads on. */
    private void resumeReading() {
        if (open) {
            serve(SelectionKey.OP_READ);
        }
    }

    /** A whole frame read on the loop: to the core. */
    @Override
    public boolean frame(ByteBuffer frame) {
        framesSinceSend++;
        counts.received(frame.remaining());
        if (!receiver.onFrame(frame)) {
            counts.error();
            fail(new ProtocolException("the core refused a frame from " + this));
        }
        return open;
    }

    @Override
    public void goodbye() {
        method.closedInOrder(this);
        close(null, false);
    }

    /**
     * Declares the peer dead if it has been silent too long or is dribbling a frame; on the loop.
     * Reads first, so a loop that was busy in a long handler does not blame the peer.
     *
     * @return nanoseconds until the next check is due: when the peer would have been silent too
     *     long, or a frame incomplete too long, and at the latest after {@link #SPARE_IDLE_NANOS},
     *     for buffers unused meanwhile
     */
    long checkLiveness(long now) {
        if (!open) {
            return IoLoop.NO_TIMERS;
        }
        boolean shared = lockShared();
        try {
            return checkLivenessLocked(now);
        } finally {
            unlockShared(shared);
        }
    }

    private long checkLivenessLocked(long now) {
        releaseIdleMemory(now);
        long silence = now - lastReceive;
        long failureNanos = TimeUnit.MILLISECONDS.toNanos(settings.failureTimeoutMs());
        int partialLength = reader.partialLength();
        long frameNanos = failureNanos + partialLength * NANOS_PER_MIB / (1 << 20);
        boolean silent = silence > failureNanos;
        boolean dribbling = partialSince != 0 && now - partialSince > frameNanos;
        if (!silent && !dribbling) {
            long due = Math.min(SPARE_IDLE_NANOS, failureNanos - silence);
            return partialSince == 0 ? due : Math.min(due, frameNanos - (now - partialSince));
        }
        try {
            if (silent && read() != Read.NOTHING) {
                return 0; // bytes waited in the socket while the loop was away: look again soon
            }
        } catch (IOException e) {
            fail(e);
            return IoLoop.NO_TIMERS;
        }
        String why = silent ? "peer silent for " + TimeUnit.NANOSECONDS.toMillis(silence) + " ms"
            : "a " + partialLength + "-byte frame still incomplete after "
                + TimeUnit.NANOSECONDS.toMillis(now - partialSince) + " ms";
        counts.error();
        if (silent) {
            method.silent(peer, settings.failureTimeoutMs());
        }
        fail(new IOException(why));
        return IoLoop.NO_TIMERS;
    }

    /** Lets buffers go back to their first size once unused for {@link #SPARE_IDLE_NANOS}; on the loop. */
    private void releaseIdleMemory(long now) {
        reader.releaseIdle(now, SPARE_IDLE_NANOS);
        // The sending side's buffers are the senders' too: only if no sender holds the lock now.
        if ((now - queueUsed > SPARE_IDLE_NANOS || now - stagedLarge > SPARE_IDLE_NANOS) && lock.tryLock()) {
            try {
                if (queue.capacity() > 0 && now - queueUsed > SPARE_IDLE_NANOS) {
                    queue.release();
                }
                if (staging.capacity() > MIN_STAGING && now - stagedLarge > SPARE_IDLE_NANOS) {
                    staging = ByteBuffer.allocateDirect(MIN_STAGING);
                }
            } finally {
                lock.unlock();
            }
        }
    }

    // ---- closing

    private volatile Throwable closeCause;

    void fail(Throwable cause) {
        close(cause, false);
    }

    /** Closes in order: the peer reads a goodbye, not just the end of the stream. */
    @Override
    public void close() {
        close(null, true);
    }

    private void close(Throwable cause, boolean sayGoodbye) {
        Selector waiting;
        lock.lock();
        try {
            if (!open) {
                return;
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
            waiting = writable;
        } finally {
            lock.unlock();
        }
        try {
            channel.close();
        } catch (IOException ignored) {
            // the socket is gone either way
        }
        closeQuietly(waiting); // wakes a sender finishing a frame, and lets the socket's descriptor go
        method.closed(this);
        tellClosed(cause);
    }

    private static void closeQuietly(Selector selector) {
        if (selector != null) {
            try {
                selector.close();
            } catch (IOException ignored) {
                // nothing of it is left to use
            }
        }
    }

    private void tellClosed(Throwable cause) {
        FrameReceiver r = receiver;
        if (r != null && told.compareAndSet(false, true)) {
            r.onClosed(cause);
        }
    }

    @Override
    public Statistics statistics() {
        return counts.snapshot(queuedBytes());
    }

    @Override
    public String toString() {
        return "tcp connection to " + peer + " at " + TcpAddress.describe(remote);
    }

    /** A peer broke the protocol; the message says how. */
    static final class ProtocolException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ProtocolException(String message) {
            super(message, null, false, false);
        }
    }
}
