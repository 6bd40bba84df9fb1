package io.polylink.example.udp.internal;

import io.polylink.ContextId;
import io.polylink.LinkException;
import io.polylink.Statistics;
import io.polylink.spi.Connection;
import io.polylink.spi.FrameReceiver;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.atomic.LongAdder;

/**
 * The udp "connection" to one peer context: its socket address and what the core gave for its
 * frames. Datagrams need no connecting, so opening one costs nothing; one per peer serves both
 * directions. Every frame is one datagram:
 *
 * <pre>
 *  0     1                          17
 *  | ver | sender's context id (16) | frame: the core's header and payload ... (up to 65490 bytes)
 * </pre>
 */
final class UdpConnection implements Connection {

    static final byte VERSION = 1;
    static final int HEADER = 1 + ContextId.BYTES;
    /** The largest IPv4 UDP payload (65535 - 20 IP - 8 UDP) less our header. */
    static final int MAX_FRAME = 65_507 - HEADER;

    private final UdpMethod method;
    private final DatagramChannel channel;
    private final ContextId self;
    private final ContextId peer;
    private final InetSocketAddress target;
    private final int maxFrame;
    /** Guarded by itself: one datagram is assembled at a time. */
    private final ByteBuffer datagram;
    private final LongAdder sent = new LongAdder();
    private final LongAdder bytesSent = new LongAdder();
    private final LongAdder received = new LongAdder();
    private final LongAdder bytesReceived = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private volatile FrameReceiver receiver;
    private volatile boolean open = true;

    UdpConnection(UdpMethod method, DatagramChannel channel, ContextId self, ContextId peer,
                  InetSocketAddress target, int maxFrame) {
        this.method = method;
        this.channel = channel;
        this.self = self;
        this.peer = peer;
        this.target = target;
        this.maxFrame = maxFrame;
        this.datagram = ByteBuffer.allocateDirect(HEADER + maxFrame);
    }

    void receiver(FrameReceiver receiver) {
        this.receiver = receiver;
    }

    InetSocketAddress target() {
        return target;
    }

    @Override
    public ContextId peer() {
        return peer;
    }

    @Override
    public String method() {
        return UdpMethod.NAME;
    }

    @Override
    public void send(ByteBuffer header, ByteBuffer payload) {
        int length = header.remaining() + payload.remaining();
        if (!open) {
            throw new LinkException(this + " is closed");
        }
        if (length > maxFrame) {
            errors.increment();
            throw new LinkException("frame of " + length + " bytes exceeds the udp method's limit of " + maxFrame
                + " (one datagram); send smaller messages to " + peer + ", or over tcp");
        }
        synchronized (datagram) {
            datagram.clear();
            datagram.put(VERSION).putLong(self.high()).putLong(self.low()).put(header).put(payload).flip();
            try {
                channel.send(datagram, target);
            } catch (IOException e) {
                errors.increment();
                throw new LinkException("udp send to " + peer + " at " + target + " failed: " + e.getMessage(), e);
            }
        }
        sent.increment();
        bytesSent.add(length);
    }

    /** Hands one received frame to the core, on the method's receiving thread. */
    void deliver(ByteBuffer frame) {
        FrameReceiver r = receiver;
        int length = frame.remaining();
        if (r == null || !open) {
            return;
        }
        received.increment();
        bytesReceived.add(length);
        if (!r.onFrame(frame)) {
            errors.increment();
            closeWith(new IOException("the core refused a frame from " + peer));
        }
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public Statistics statistics() {
        return new Statistics(sent.sum(), bytesSent.sum(), received.sum(), bytesReceived.sum(), errors.sum());
    }

    @Override
    public void close() {
        closeWith(null);
    }

    void closeWith(Throwable cause) {
        if (!open) {
            return;
        }
        open = false;
        method.forget(this);
        FrameReceiver r = receiver;
        if (r != null) {
            r.onClosed(cause);
        }
    }

    @Override
    public String toString() {
        return "udp connection to " + peer + " at " + target.getAddress().getHostAddress() + ":" + target.getPort();
    }
}
