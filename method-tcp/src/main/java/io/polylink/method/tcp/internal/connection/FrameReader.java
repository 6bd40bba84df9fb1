package io.polylink.method.tcp.internal.connection;

import io.polylink.spi.FrameReceiver;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * The receiving buffers of one connection: {@code length:u32 frame} records out of one read
 * buffer, handed on in place; a frame larger than the buffer's largest size gets its own buffer,
 * sized after the length was checked against the bound.
 *
 * <p>Not thread-safe: used by the connection's reader of the moment (its I/O thread, or a sender
 * holding the read lock).
 */
final class FrameReader {

    /** The read buffer's sizes: frames above the largest get a buffer of their own. */
    static final int MIN_READ = 4 * 1024;
    static final int MAX_READ = 64 * 1024;
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

    private final int maxFrame;
    /**
     * Grown by doubling while reads fill it or a frame needs more room, up to {@link #MAX_READ};
     * back to {@link #MIN_READ} once idle (see {@link #releaseIdle}), so a connection carrying
     * small RSRs, or idle after a stream, holds little.
     */
    private ByteBuffer readBuffer = ByteBuffer.allocateDirect(MIN_READ);
    private long readWide;
    private ByteBuffer largeFrame;
    /**
     * The buffer {@link #largeFrame} last used, kept for the next large frame: a stream of them
     * would otherwise allocate and zero a buffer each, and a heap buffer is copied once more by
     * the JDK on every read. Direct, so the socket reads into it; dropped once idle, so a
     * connection does not hold a frame's worth of memory for good.
     */
    private ByteBuffer spareFrame;
    private long spareUsed;
    private int partialLength;

    FrameReader(int maxFrame) {
        this.maxFrame = maxFrame;
    }

    /** @return what the socket gave, as {@link SocketChannel#read} says */
    int read(SocketChannel channel) throws IOException {
        return largeFrame != null ? channel.read(largeFrame) : channel.read(readBuffer);
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
            if (!largeFrame.hasRemaining()) {
                ByteBuffer frame = largeFrame.flip();
                largeFrame = null;
                sink.frame(frame);
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
            if (length < 0 || length > maxFrame) {
                throw new ProtocolException("frame length " + Integer.toUnsignedString(length)
                    + " exceeds the maximum of " + maxFrame + " (not Polylink framing, or a corrupt stream)");
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
                largeFrame = largeFrameBuffer(length);
                int take = Math.min(readBuffer.remaining(), length);
                largeFrame.put(largeFrame.position(), readBuffer, readBuffer.position(), take).position(take);
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
            spareFrame = null;
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

    /** @return a buffer of {@code length} bytes, the spare one if it is large enough; length checked by the caller */
    private ByteBuffer largeFrameBuffer(int length) {
        if (spareFrame == null || spareFrame.capacity() < length) {
            // Rounded up, so a stream of slowly growing frames does not reallocate for each.
            int capacity = (int) Math.min(maxFrame, Long.highestOneBit(length - 1L) << 1);
            spareFrame = ByteBuffer.allocateDirect(Math.max(capacity, length));
        }
        spareUsed = System.nanoTime();
        return spareFrame.clear().limit(length);
    }
}
