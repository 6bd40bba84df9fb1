package io.polylink.core.internal.channel;

import io.polylink.ContextId;
import io.polylink.LinkException;
import io.polylink.Statistics;
import io.polylink.spi.Connection;
import io.polylink.spi.FrameReceiver;
import io.polylink.spi.InboundSink;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A connection with no wire under it, for feeding frames to the core by hand: it keeps what the
 * core sends back and behaves like a method on close (tells the receiver once). It can be told
 * to hold sends, as a connection to a peer that reads nothing does.
 */
final class RecordingConnection implements Connection {

    static final String METHOD = "fuzz";

    private final ContextId peer;
    private final List<byte[]> sent = new ArrayList<>();
    private FrameReceiver receiver;
    private boolean open = true;
    private int closedNotices;
    private volatile CountDownLatch held = new CountDownLatch(0);

    RecordingConnection(ContextId peer) {
        this.peer = peer;
    }

    /** Opens the core's side, as a method does once per established connection. */
    synchronized FrameReceiver attachTo(InboundSink sink) {
        receiver = sink.open(this);
        return receiver;
    }

    @Override
    public ContextId peer() {
        return peer;
    }

    @Override
    public String method() {
        return METHOD;
    }

    /** Sends wait from now on until {@link #releaseSends}, or 30 s. */
    void holdSends() {
        held = new CountDownLatch(1);
    }

    void releaseSends() {
        held.countDown();
    }

    @Override
    public void send(ByteBuffer header, ByteBuffer payload) {
        try {
            held.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        record(header, payload);
    }

    private synchronized void record(ByteBuffer header, ByteBuffer payload) {
        if (!open) {
            throw new LinkException("recording connection to " + peer + " is closed");
        }
        byte[] frame = new byte[header.remaining() + payload.remaining()];
        int headerLength = header.remaining();
        header.get(frame, 0, headerLength);
        payload.get(frame, headerLength, frame.length - headerLength);
        sent.add(frame);
    }

    @Override
    public synchronized boolean isOpen() {
        return open;
    }

    @Override
    public Statistics statistics() {
        return Statistics.ZERO;
    }

    @Override
    public synchronized void close() {
        if (open) {
            open = false;
            closedNotices++;
            if (receiver != null) {
                receiver.onClosed(null);
            }
        }
    }

    synchronized List<byte[]> sent() {
        return List.copyOf(sent);
    }

    synchronized int closedNotices() {
        return closedNotices;
    }

    @Override
    public String toString() {
        return METHOD + " connection to " + peer;
    }
}
