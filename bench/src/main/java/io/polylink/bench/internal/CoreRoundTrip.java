package io.polylink.bench.internal;

import io.polylink.Context;
import io.polylink.Delivery;
import io.polylink.Endpoint;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.spi.Connection;
import io.polylink.spi.FrameReceiver;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One RSR round trip between two contexts over {@link SameThreadMethod}: a ping to an inline
 * handler that answers with a pong of the same size, on one thread. Everything a shm or tcp round
 * trip costs the core is here (numbering, the copy kept for replay, framing, the send path's
 * locks, receiving, dispatch, counters, acknowledgements), and nothing of the wire, so runs on a
 * busy machine agree where the two-process ping-pong does not. {@link #baseline} sends the same
 * two frames through the same method between two bare receivers; the difference is the core's
 * work for two RSRs.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CoreRoundTrip {

    static final int PING = 1;
    static final int PONG = 2;
    /** A ping that carries the startpoint its pong goes to, as requests that expect an answer do. */
    static final int PING_REPLY_TO = 3;
    /** A sequenced RSR's frame header with its length word, as the core writes it. */
    static final int HEADER = 16;

    @Param({"16", "256"})
    public int size;

    private EmbeddedContext a;
    private EmbeddedContext b;
    private Startpoint toB;
    private MessageBuffer ping;
    private MessageBuffer pingReplyTo;
    private MessageBuffer pong;
    private long pongs;
    private Connection bareClient;
    private ByteBuffer bareHeader;
    private ByteBuffer barePayload;
    private long barePongs;

    @Setup
    public void open() {
        SameThreadMethod.Network network = new SameThreadMethod.Network();
        a = EmbeddedContext.open().add(new SameThreadMethod(network), 10);
        b = EmbeddedContext.open().add(new SameThreadMethod(network), 10);
        Context client = a.context();
        Endpoint replies = client.createEndpoint().register(PONG, Delivery.INLINE, (e, m) -> pongs++);
        pong = b.context().allocateBuffer(size).putRaw(new byte[size], 0, size);
        Startpoint[] back = new Startpoint[1];
        Endpoint echo = b.context().createEndpoint()
            .register(PING, Delivery.INLINE, (e, m) -> back[0].send(PONG, pong))
            .register(PING_REPLY_TO, Delivery.INLINE, (e, m) -> m.getStartpoint().send(PONG, pong));
        back[0] = b.context().startpoint(replies.startpoint().toText());
        toB = client.startpoint(echo.startpoint().toText());
        ping = client.allocateBuffer(size).putRaw(new byte[size], 0, size);
        pingReplyTo = client.allocateBuffer(size + 64).putStartpoint(replies.startpoint()).putRaw(new byte[size], 0, size);
        openBare();
        // Proves the pong is back before send returns, and over this method, before anything is measured.
        toB.send(PING, ping);
        if (pongs != 1 || !toB.explain().toString().contains(SameThreadMethod.NAME)) {
            throw new IllegalStateException(pongs + " pongs after one ping; the link: " + toB.explain());
        }
    }

    /**
     * Two ends of the method whose receivers answer a ping with a pong and count pongs, as the
     * contexts do. On a network of their own: a context's control thread sending an
     * acknowledgement on a shared one would take over delivering this thread's frames.
     */
    private void openBare() {
        SameThreadMethod.Network network = new SameThreadMethod.Network();
        bareHeader = ByteBuffer.allocate(HEADER);
        barePayload = ByteBuffer.allocate(size);
        Connection[] server = new Connection[1];
        ByteBuffer pongHeader = ByteBuffer.allocate(HEADER);
        ByteBuffer pongPayload = ByteBuffer.allocate(size);
        Connection[] ends = SameThreadMethod.pair(network, new BareReceiver(() -> barePongs++),
            new BareReceiver(() -> server[0].send(pongHeader.clear(), pongPayload.clear())));
        bareClient = ends[0];
        server[0] = ends[1];
    }

    /** Takes a frame, reads its header's first word as a receiver must, and runs {@code then}. */
    private record BareReceiver(Runnable then) implements FrameReceiver {
        @Override
        public boolean onFrame(ByteBuffer frame) {
            int word = frame.getInt(frame.position());
            if (word != 0) {
                throw new IllegalStateException("bare frames carry a zero header, this one starts " + word);
            }
            then.run();
            return true;
        }

        @Override
        public void onClosed(Throwable cause) {
        }
    }

    @TearDown
    public void close() {
        try {
            a.close();
        } finally {
            b.close();
        }
    }

    /** The floor: a ping frame and its pong through the method, between receivers that do nothing else. */
    @Benchmark
    public long baseline() {
        bareClient.send(bareHeader.clear(), barePayload.clear());
        return barePongs;
    }

    @Benchmark
    public long polylink() {
        toB.send(PING, ping);
        return pongs;
    }

    /** The same with the pong's startpoint read from each ping: a request and its answer, as RSRs make them. */
    @Benchmark
    public long replyToCarried() {
        toB.send(PING_REPLY_TO, pingReplyTo);
        return pongs;
    }
}
