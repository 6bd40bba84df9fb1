package io.polylink.method.tcp.internal.connection;

import io.polylink.spi.FrameReceiver;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * The receiving buffers of one connection: {@code length:u32 frame} records out of one read
 * buffer, handed on in place; a frame larger than the buffer's largest size gets its own buffer,
 * after the length was checked against the bound, which grows as the frame's bytes arrive, within
 * the method's budget for large frames ({@link FrameLimits}).
 *
 * <p>Not thread-safe: used by the connection's reader of the moment (its I/O thread, or a sender
 * holding the read lock).
 */
final class FrameReader {

    /** The read buffer's sizes: frames above the largest get a buffer of their own. */
    static final int MIN_READ = 4 * 1024;
    static final int MAX_READ = 64 * 1024;
    /** A large frame's buffer starts this large, or as large as the frame, and doubles while the frame fills it. */
    static final int LARGE_START = 2 * MAX_READ;
    /**
     * The length that says the sender closes in order and sends nothing more: without it, a peer's
     * shutdown reads as the end of the stream, as a crash does, and was logged as a lost connection.
     */
    static final int GOODBYE = -1;

    /** Where whole frames go. */
    interface Sink {
        /** @return whether to go on: {@code false} once the connection closed */
        boolean frame(ByteBuffer frame);

        /** The peer said goodbye: nothing follows. */
        void goodbye();
    }

    private final FrameLimits limits;
    /**
     * Grown by doubling while reads fill it or a frame needs more room, up to {@link #MAX_READ};
     * back to {@link #MIN_READ} once idle (see {@link #releaseIdle}), so a connection carrying
     * small RSRs, or idle after a stream, holds little.
     */
    private ByteBuffer readBuffer = ByteBuffer.allocateDirect(MIN_READ);
    private long readWide;
    /**
     * The large frame arriving, in {@link #spareFrame}: its bytes so far up to the position, room
     * up to the limit, which is the frame's length once the buffer is that large.
     */
    private ByteBuffer largeFrame;
    private int largeLength;
    /**
     * The buffer of the large frame arriving, or the one the last used, kept for the next: a
     * stream of them would otherwise allocate and zero a buffer each, and a heap buffer is copied
     * once more by the JDK on every read. Direct, so the socket reads into it; its capacity is
     * held in the method's budget, and it goes once idle, or at once after its frame when the
     * budget runs short, so a connection does not hold a frame's worth of memory for good.
     */
    private ByteBuffer spareFrame;
    private long spareUsed;
    private int partialLength;

    FrameReader(FrameLimits limits) {
        this.limits = limits;
    }

    /**
     * Reads what the socket has. A large frame that filled its buffer gets a larger one first: the
     * loop reads when the socket is readable, so more of the frame is there.
     *
     * @return what the socket gave, as {@link SocketChannel#read} says
     * @throws ProtocolException if the larger buffer is beyond the budget
     */
    int read(SocketChannel channel) throws IOException {
        if (largeFrame == null) {
            return channel.read(readBuffer);
        }
        if (!largeFrame.hasRemaining() && largeFrame.position() < largeLength) {
            growLarge();
        }
        return channel.read(largeFrame);
    }

    /**
     * Hands on every whole frame read so far, after a read of {@code n} bytes (0 to parse what a
     * sender left).
     *
     * @return whether the read buffer was wide this time: then call {@link #usedWide}
     * @throws ProtocolException if a length is out of bounds
     */
    boolean parse(int n, Sink sink) {
        if (largeFrame != null) {
            if (largeFrame.position() == largeLength) {
                ByteBuffer frame = largeFrame.flip();
                largeFrame = null;
                sink.frame(frame);
                if (limits.pressed()) {
                    releaseSpare();
                }
            }
            return false;
        }
        boolean filled = !readBuffer.hasRemaining();
        readBuffer.flip();
        parseBuffer(sink);
        readBuffer.compact();
        int frame = readBuffer.position() >= 4 ? 4 + partialLength : 0;
        if (filled || frame > readBuffer.capacity()) {
            grow(frame);
        }
        return n >= MIN_READ || frame > MIN_READ;
    }

    /** The read buffer's width was needed at {@code now}: it stays that wide a while. */
    void usedWide(long now) {
        readWide = now;
    }

    private void parseBuffer(Sink sink) {
        while (readBuffer.remaining() >= 4) {
            int at = readBuffer.position();
            int length = readBuffer.getInt(at);
            if (length == GOODBYE) {
                readBuffer.position(at + 4);
                sink.goodbye();
                return;
            }
            if (length < 0 || length > limits.maxFrame()) {
                throw new ProtocolException("frame length " + Integer.toUnsignedString(length)
                    + " exceeds the maximum of " + limits.maxFrame() + " (not Polylink framing, or a corrupt stream)");
            }
            partialLength = length;
            if (length == 0) {
                readBuffer.position(at + 4);
            } else if (readBuffer.remaining() >= 4 + length) {
                int limit = readBuffer.limit();
                readBuffer.limit(at + 4 + length).position(at + 4);
                boolean goOn = sink.frame(readBuffer);
                readBuffer.limit(limit).position(at + 4 + length);
                if (!goOn) {
                    return;
                }
            } else if (4 + length > MAX_READ) {
                readBuffer.position(at + 4);
                int take = Math.min(readBuffer.remaining(), length);
                largeFrame = largeFrameBuffer(length, take);
                largeFrame.put(0, readBuffer, readBuffer.position(), take).position(take);
                readBuffer.position(readBuffer.position() + take);
                return;
            } else {
                return;
            }
        }
    }

    /** What {@link #readAside} did. */
    enum Aside { NOTHING_READ, ALL_TAKEN, LEFT_FOR_LOOP }

    /**
     * A sender's read: offers whole frames to {@code receiver} aside until it declines one.
     * Nothing while a large frame is half read: that is the loop's.
     *
     * @return whether bytes came, and whether some are left for the loop: a frame declined, one
     *     incomplete, a goodbye or garbage, which the loop judges
     * @throws IOException as the socket's read does
     */
    Aside readAside(SocketChannel channel, FrameReceiver receiver, TrafficCounts counts) throws IOException {
        if (largeFrame != null || channel.read(readBuffer) <= 0) {
            return Aside.NOTHING_READ;
        }
        readBuffer.flip();
        while (readBuffer.remaining() >= 4) {
            int at = readBuffer.position();
            int length = readBuffer.getInt(at);
            if (length == 0) {
                readBuffer.position(at + 4);
                continue;
            }
            if (length < 0 || length > readBuffer.remaining() - 4) {
                break;
            }
            int limit = readBuffer.limit();
            readBuffer.limit(at + 4 + length).position(at + 4);
            boolean taken = receiver.offerAside(readBuffer);
            readBuffer.limit(limit).position(taken ? at + 4 + length : at);
            if (!taken) {
                break;
            }
            counts.received(length);
        }
        readBuffer.compact();
        return readBuffer.position() > 0 ? Aside.LEFT_FOR_LOOP : Aside.ALL_TAKEN;
    }

    /** @return whether a frame is incomplete */
    boolean partial() {
        return largeFrame != null || readBuffer.position() > 0;
    }

    /** @return the length of the frame last begun */
    int partialLength() {
        return partialLength;
    }

    /** @return the read buffer's size */
    int readCapacity() {
        return readBuffer.capacity();
    }

    /** Lets buffers go back to their first size once unused for {@code idleNanos}. */
    void releaseIdle(long now, long idleNanos) {
        if (spareFrame != null && largeFrame == null && now - spareUsed > idleNanos) {
            releaseSpare();
        }
        if (readBuffer.capacity() > MIN_READ && readBuffer.position() == 0 && now - readWide > idleNanos) {
            readBuffer = ByteBuffer.allocateDirect(MIN_READ);
        }
    }

    /** Doubles the read buffer, or more to hold a frame of {@code bytes}, keeping what it holds; up to {@link #MAX_READ}. */
    private void grow(int bytes) {
        int capacity = Math.min(MAX_READ, Math.max(bytes, 2 * readBuffer.capacity()));
        if (capacity > readBuffer.capacity()) {
            readBuffer = ByteBuffer.allocateDirect(capacity).put(readBuffer.flip());
        }
    }

    /** The connection closed: gives back what it held of the budget; nothing is read any more. */
    void release() {
        largeFrame = null;
        releaseSpare();
    }

    private void releaseSpare() {
        if (spareFrame != null) {
            limits.give(spareFrame.capacity());
            spareFrame = null;
        }
    }

    /**
     * @param length the frame's length, checked by the caller
     * @param have bytes of it already read
     * @return the spare buffer for a frame of {@code length}, grown if it has less room than
     *     {@link #LARGE_START} or twice {@code have}
     * @throws ProtocolException if the budget has no room for it
     */
    private ByteBuffer largeFrameBuffer(int length, int have) {
        largeLength = length;
        int wanted = Math.min(length, Math.max(LARGE_START, 2 * have));
        if (spareFrame == null || spareFrame.capacity() < wanted) {
            replaceSpare(wanted, 0);
        }
        spareUsed = System.nanoTime();
        return spareFrame.clear().limit(Math.min(length, spareFrame.capacity()));
    }

    /** The large frame filled its buffer and more of it came: doubles it, up to the frame's length, keeping what it holds. */
    private void growLarge() {
        int have = largeFrame.position();
        replaceSpare((int) Math.min(largeLength, 2L * largeFrame.capacity()), have);
        largeFrame = spareFrame.clear().limit(Math.min(largeLength, spareFrame.capacity())).position(have);
        spareUsed = System.nanoTime();
    }

    /**
     * Replaces the spare buffer by one of {@code capacity} bytes holding its first {@code keep}
     * bytes, within the budget.
     *
     * @throws ProtocolException if the budget has no room for it
     */
    private void replaceSpare(int capacity, int keep) {
        int held = spareFrame == null ? 0 : spareFrame.capacity();
        if (!limits.take(capacity - held)) {
            throw new ProtocolException("a frame of " + largeLength + " bytes was refused: the connections hold "
                + limits.held() + " of the " + limits.budget() + " bytes budgeted for large frames still arriving "
                + "(largeFrameBudget), and its buffer needs " + (capacity - held) + " more");
        }
        ByteBuffer grown;
        try {
            grown = ByteBuffer.allocateDirect(capacity);
        } catch (OutOfMemoryError e) {
            limits.give(capacity - held);
            throw e;
        }
        if (keep > 0) {
            grown.put(0, spareFrame, 0, keep);
        }
        spareFrame = grown;
    }
}
