package io.polylink.method.shm.internal.connect;

import static io.polylink.method.shm.internal.segment.InboxLayout.FLAG_BEGIN;
import static io.polylink.method.shm.internal.segment.InboxLayout.FLAG_END;

import io.polylink.spi.FrameReceiver;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The receiving end of one connection: puts the peer's records back together into frames and
 * hands them to the core. A frame too large for one record comes as {@code BEGIN(total:i32,
 * bytes)}, middles, {@code END}, gathered in a buffer from the method's {@link Reassembly}.
 *
 * <p>The poller thread alone hands it records; {@link #stop} comes from whichever thread closes
 * the connection.
 */
public final class FrameAssembler {

    private final ShmConnection connection;
    private final int maxFrame;
    private final Reassembly reassembly;
    private volatile FrameReceiver receiver;
    /** Cleared when the connection closes: the poller reads this flag on every record, not the connection's. */
    private volatile boolean open = true;
    /** A split frame being put together, from {@link #reassembly}. */
    private ByteBuffer partial;
    /**
     * Written by the poller alone, so an ordered store does what an atomic add would, without its
     * locked instruction on every frame; read from anywhere.
     */
    private final AtomicLong framesReceived = new AtomicLong();
    private final AtomicLong bytesReceived = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();

    FrameAssembler(ShmConnection connection, int maxFrame, Reassembly reassembly) {
        this.connection = connection;
        this.maxFrame = maxFrame;
        this.reassembly = reassembly;
    }

    /** @return the connection whose records these are */
    public ShmConnection connection() {
        return connection;
    }

    void attach(FrameReceiver receiver) {
        this.receiver = receiver;
    }

    /** @return where frames go, or {@code null} before the core named it */
    FrameReceiver receiver() {
        return receiver;
    }

    /** The connection closed: no frame goes to the core any more. */
    void stop() {
        open = false;
    }

    /**
     * Takes one record of the peer's: a whole frame goes to the core at once, a split frame's
     * records are gathered until its last. A record out of order closes the connection.
     *
     * @param flags the record's {@code BEGIN} and {@code END} flags
     * @param body the record's body, from position to limit, valid during the call only
     */
    public void onData(int flags, ByteBuffer body) {
        if (!open) {
            return;
        }
        if (flags == (FLAG_BEGIN | FLAG_END)) {
            if (partial != null) {
                protocolError("a whole frame came while a split one was " + partial.remaining() + " bytes short");
                return;
            }
            deliver(body);
            return;
        }
        if ((flags & FLAG_BEGIN) != 0) {
            if (partial != null || body.remaining() < 4) {
                protocolError(partial != null ? "a split frame began before the previous one ended"
                    : "a split frame began without its length");
                return;
            }
            int total = body.getInt(body.position());
            if (total <= 0 || total > maxFrame) {
                protocolError("a split frame announced " + Integer.toUnsignedString(total)
                    + " bytes, above the maximum of " + maxFrame);
                return;
            }
            partial = reassembly.take(total);
            body.position(body.position() + 4);
        } else if (partial == null) {
            protocolError("a continuation record came without a beginning");
            return;
        }
        if (body.remaining() > partial.remaining()) {
            protocolError("a split frame's records exceed its announced " + partial.capacity() + " bytes");
            return;
        }
        partial.put(body);
        if ((flags & FLAG_END) != 0) {
            if (partial.hasRemaining()) {
                protocolError("a split frame ended " + partial.remaining() + " bytes short");
                return;
            }
            ByteBuffer frame = partial.flip();
            partial = null;
            deliver(frame);
            reassembly.give(frame);
        }
    }

    private void deliver(ByteBuffer frame) {
        framesReceived.lazySet(framesReceived.get() + 1);
        bytesReceived.lazySet(bytesReceived.get() + frame.remaining());
        if (!receiver.onFrame(frame)) {
            errors.incrementAndGet();
            connection.fail(new IOException("the core refused a frame from " + connection));
        }
    }

    private void protocolError(String what) {
        errors.incrementAndGet();
        connection.fail(new IOException(what)); // the core logs why, naming the connection
    }

    long framesReceived() {
        return framesReceived.get();
    }

    long bytesReceived() {
        return bytesReceived.get();
    }

    long errors() {
        return errors.get();
    }
}
