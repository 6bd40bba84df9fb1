package io.polylink.bench.internal;

import io.polylink.Context;
import io.polylink.Delivery;
import io.polylink.Endpoint;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import io.polylink.core.internal.EmbeddedContext;
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
 * busy machine agree where the two-process ping-pong does not. {@link #baseline} makes the two
 * frame copies the method makes; the difference is the core's work for two RSRs.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CoreRoundTrip {

    static final int PING = 1;
    static final int PONG = 2;

    @Param({"16", "256"})
    public int size;

    private EmbeddedContext a;
    private EmbeddedContext b;
    private Startpoint toB;
    private MessageBuffer ping;
    private MessageBuffer pong;
    private long pongs;
    private ByteBuffer frame;
    private ByteBuffer copy;

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
            .register(PING, Delivery.INLINE, (e, m) -> back[0].send(PONG, pong));
        back[0] = b.context().startpoint(replies.startpoint().toText());
        toB = client.startpoint(echo.startpoint().toText());
        ping = client.allocateBuffer(size).putRaw(new byte[size], 0, size);
        frame = ByteBuffer.allocate(size);
        copy = ByteBuffer.allocate(size);
        // Proves the pong is back before send returns, and over this method, before anything is measured.
        toB.send(PING, ping);
        if (pongs != 1 || !toB.explain().toString().contains(SameThreadMethod.NAME)) {
            throw new IllegalStateException(pongs + " pongs after one ping; the link: " + toB.explain());
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

    /** The floor: the two copies the method makes, a frame in and one back. */
    @Benchmark
    public long baseline() {
        copy.clear().put(frame.clear());
        frame.clear().put(copy.flip());
        return frame.position();
    }

    @Benchmark
    public long polylink() {
        toB.send(PING, ping);
        return pongs;
    }
}
