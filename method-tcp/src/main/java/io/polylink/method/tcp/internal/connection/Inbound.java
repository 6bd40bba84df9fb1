package io.polylink.method.tcp.internal.connection;

import io.polylink.method.tcp.internal.loop.IoHandler;
import io.polylink.method.tcp.internal.loop.IoLoop;
import io.polylink.spi.FrameReceiver;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The reading side of a connection, and the loop's handler of its socket: frames out of a
 * {@link FrameReader}, handed to the core in place, on the I/O thread; the socket's room for
 * writes goes to the sending side. It also tells the loop what the traffic looks like: a
 * conversation, whose socket the loop may poll, or the sending end of a bulk stream.
 *
 * <p>Reads shared with a sender, at the sending end of a bulk stream: the socket's reads and
 * writes take one kernel lock, and the I/O thread reading an acknowledgement while a sender wrote
 * slept for that lock, and its wake-ups took the core the receiver needed (see
 * docs/performance-notes.md#tcp-reads-shared-with-senders). So while the connection sends in bulk
 * ({@link #sharedReads}), a sender holds {@link #readLock} through its write, and the loop,
 * finding it held, leaves the socket to that sender, which reads after its write and offers the
 * frames to the core ({@link FrameReceiver#offerAside}). The core takes acknowledgements there;
 * at the first frame it declines, the sender hands the rest back to the loop, which delivers it
 * and reads alone again.
 *
 * <p>"On the loop" and "loop thread only" here mean: on the thread that holds the loop's receiving
 * turn ({@link IoLoop#inLoop}), the loop's own or a caller receiving in its place.
 */
final class Inbound implements IoHandler, FrameReader.Sink {

    /** At most this many frames sent between two reads make a conversation. */
    private static final int CONVERSATION_SENDS = 2;
    /**
     * Sent between two reads, this much makes a connection the sending end of a bulk stream. The
     * core asks for an acknowledgement every 4-16 MiB of large RSRs, while a conversation of 1 MiB
     * messages sends one between reads.
     */
    private static final long BULK_BYTES = 2L << 20;

    private final TcpConnection connection;
    private final SocketChannel channel;
    private final IoLoop loop;
    private final TrafficCounts counts;
    private final FrameReader reader;
    private volatile FrameReceiver receiver;
    private SelectionKey key;
    /** Cleared when the connection closes: the loop stops at the next frame. */
    private volatile boolean open = true;
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
     * stays readable until that sender reads, and the loop would be woken by it again and again
     * (see docs/performance-notes.md#tcp-reads-shared-with-senders). Whoever lets go of the lock
     * next gives reads back ({@link #unparkReads}).
     */
    private final AtomicBoolean readsParked = new AtomicBoolean();
    /** A sender left bytes in {@link #reader} for the loop, which parses them without a read. */
    private boolean handedBack;
    private final Runnable resumeReading = this::resumeReading;

    /**
     * Whether this connection carries a conversation, for {@link #pollable}: frames sent since
     * bytes last came in, and frames received between the last two sends. Sends count under the
     * send lock, reads on the loop without it: a count lost to that race only changes the loop's
     * choice for a turn.
     */
    private int sendsSinceRead;
    private int framesSinceSend;
    private int framesBetweenSends;
    /** The bytes sent at the last read, and between the last two reads with sends between them; loop thread only. */
    private long sentAtRead;
    private long sentBetweenReads;
    /**
     * When bytes last came; loop thread only, like the rest of the receiving side. Not volatile, as
     * that would cost a locked instruction per read.
     */
    private long lastReceive = System.nanoTime();

    Inbound(TcpConnection connection, SocketChannel channel, IoLoop loop, TrafficCounts counts, FrameLimits limits) {
        this.connection = connection;
        this.channel = channel;
        this.loop = loop;
        this.counts = counts;
        this.reader = new FrameReader(limits);
    }

    /** Before the first frame: where frames go. */
    void receiveWith(FrameReceiver receiver) {
        this.receiver = receiver;
    }

    /** @return where frames go; {@code null} before the connection started */
    FrameReceiver receiver() {
        return receiver;
    }

    /**
     * On the loop, send lock held: registers the socket for reads and {@code moreOps}.
     *
     * @return whether it was registered: {@code false} if the socket closed first
     */
    boolean register(int moreOps) {
        key = loop.register(channel, SelectionKey.OP_READ | moreOps, this);
        return key != null;
    }

    /** @return the socket's key with the loop; {@code null} before it was registered */
    SelectionKey key() {
        return key;
    }

    /**
     * The connection closed: nothing more is read or handed on, and what the reader held of the
     * budget for large frames goes back, on the loop, which owns the reader.
     */
    void stop() {
        open = false;
        if (loop.inLoop()) {
            reader.release();
        } else {
            loop.execute(reader::release);
        }
    }

    /** @return the read buffer's size; on the loop, like the rest of the reading side */
    int readCapacity() {
        return reader.readCapacity();
    }

    /** Under the send lock: a frame went out, for telling a conversation from a stream. */
    void noteSend() {
        sendsSinceRead++;
        framesBetweenSends = framesSinceSend;
        framesSinceSend = 0;
    }

    @Override
    public boolean ready(SelectionKey key) {
        return serve(key.readyOps());
    }

    @Override
    public void failed(Throwable cause) {
        counts.error();
        connection.fail(cause);
    }

    /**
     * Only in a conversation: one or two frames sent since bytes last came in, and one or two
     * received between the last two sends. A socket read takes the socket's lock, and reads
     * spinning on either end of a stream hold it up (see
     * docs/performance-notes.md#tcp-polling-only-conversations).
     */
    @Override
    public boolean pollable() {
        int sends = sendsSinceRead;
        int frames = framesBetweenSends;
        return sends > 0 && sends <= CONVERSATION_SENDS && frames > 0 && frames <= CONVERSATION_SENDS;
    }

    /** Reads, and hands frames on, the same on any thread that holds the loop's receiving turn. */
    @Override
    public boolean drivable() {
        return true;
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
                connection.drain();
            }
            boolean traffic = (ops & SelectionKey.OP_READ) != 0 && open && read() == Read.TRAFFIC;
            return traffic || writable;
        } catch (CancelledKeyException closedMeanwhile) {
            // another thread closed the connection; it has told the core already
        } catch (IOException e) {
            connection.fail(e);
        } catch (ProtocolException e) {
            counts.error();
            connection.fail(e); // the core logs why, naming this connection
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
            wantReadAside();
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
        if (sent != sentAtRead) {
            // A read with nothing sent since the last one keeps the verdict: a loop kept from
            // this socket reads a stream's acknowledgements in two gulps, and the second says
            // nothing of how this end sends.
            sentBetweenReads = sent - sentAtRead;
            sentAtRead = sent;
        }
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
        shareReads(open && sentBetweenReads >= BULK_BYTES);
        return progressed || partial ? Read.TRAFFIC : Read.HEARTBEATS;
    }

    /** On the loop, with no other thread able to read: lets senders read while the connection sends in bulk. */
    void shareReads(boolean bulk) {
        if (bulk != sharedReads) {
            sharedReads = bulk; // last: once set, a sender may read
        }
    }

    /** The loop found the socket readable but {@link #readLock} held: the sender holding it reads. */
    void wantReadAside() {
        readWanted = true;
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
            connection.fail(new ProtocolException("the core refused a frame from " + connection));
        }
        return open;
    }

    @Override
    public void goodbye() {
        connection.closedInOrder();
    }

    @Override
    public String toString() {
        return connection.toString();
    }

    /**
     * A sender about to write: takes {@link #readLock} if reads are shared, so the loop leaves the
     * socket to it meanwhile.
     *
     * @return whether it took the lock: then {@link #releaseSenderRead} after the write
     */
    boolean trySenderRead() {
        return sharedReads && readLock.tryLock();
    }

    /** A sender holding {@link #readLock} after its write: reads, if the loop found the lock held. */
    void readAsideIfWanted() {
        if (readWanted) {
            readAside();
        }
    }

    /** A sender lets go of {@link #readLock}, giving reads back to the loop if it parked them. */
    void releaseSenderRead() {
        readLock.unlock();
        if (readsParked()) {
            unparkReads();
        }
    }

    /** @return whether the loop left reads to a sender holding {@link #readLock} */
    boolean readsParked() {
        return readsParked.get();
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
        try {
            read = reader.readAside(channel, receiver, counts);
        } catch (IOException e) {
            return;
        }
        if (read == FrameReader.Aside.NOTHING_READ) {
            return;
        }
        lastReceive = System.nanoTime();
        if (read == FrameReader.Aside.LEFT_FOR_LOOP) {
            handedBack = true;
            sharedReads = false;
            loop.execute(resumeReading);
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
        loop.wake(); // a blocked selector registers the change only when it next wakes
    }

    /**
     * On the loop: takes {@link #readLock} if reads are shared now, waiting out a sender's write.
     *
     * @return whether it took the lock, for {@link #unlockShared}
     */
    boolean lockShared() {
        if (!sharedReads) {
            return false;
        }
        readLock.lock();
        return true;
    }

    void unlockShared(boolean locked) {
        if (locked) {
            readLock.unlock();
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

    /** @return whether reads go on; cleared when the connection closes */
    boolean isOpen() {
        return open;
    }

    /** @return when bytes last came; {@link #lockShared} held */
    long lastReceive() {
        return lastReceive;
    }

    /** @return since when a frame is incomplete, 0 if none is; {@link #lockShared} held */
    long partialSince() {
        return partialSince;
    }

    /** @return the length of the frame last begun; {@link #lockShared} held */
    int partialLength() {
        return reader.partialLength();
    }

    /** Lets the read buffers go back to their first size once unused for {@code idleNanos}; {@link #lockShared} held. */
    void releaseIdle(long now, long idleNanos) {
        reader.releaseIdle(now, idleNanos);
    }
}
