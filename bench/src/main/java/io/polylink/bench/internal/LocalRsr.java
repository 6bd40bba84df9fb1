package io.polylink.bench.internal;

import io.polylink.Context;
import io.polylink.Delivery;
import io.polylink.Endpoint;
import io.polylink.Handler;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import io.polylink.core.internal.EmbeddedContext;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One RSR over the plain {@code local} method to an inline handler, 64-byte payload, the buffer
 * reused: the core's own cost per RSR with no wire under it. {@link #baseline} calls the same
 * handler through the same interface on the same buffer, so the difference is what the core adds
 * (route check, endpoint lookup, handler table, counters). Run with {@code -prof gc}: the path
 * is meant to allocate nothing.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class LocalRsr {

    static final int HANDLER = 1;
    static final int PAYLOAD_BYTES = 64;
    private static final long FIRST = 0x0102030405060708L;

    private EmbeddedContext embedded;
    private Endpoint endpoint;
    private Startpoint startpoint;
    private MessageBuffer buffer;
    private PayloadReader reader;
    private Handler handler;

    @Setup
    public void open() {
        embedded = EmbeddedContext.open();
        Context context = embedded.context();
        reader = new PayloadReader();
        handler = reader;
        endpoint = context.createEndpoint().register(HANDLER, Delivery.INLINE, reader);
        startpoint = endpoint.startpoint();
        buffer = context.allocateBuffer(PAYLOAD_BYTES);
        for (int i = 0; i < PAYLOAD_BYTES / Long.BYTES; i++) {
            buffer.putLong(FIRST + i);
        }
        // Selects and caches the route, and proves the handler runs, before anything is measured.
        startpoint.send(HANDLER, buffer);
        if (reader.last() != FIRST || buffer.length() != PAYLOAD_BYTES) {
            throw new IllegalStateException("handler read " + Long.toHexString(reader.last())
                + " from a " + buffer.length() + "-byte buffer");
        }
    }

    @TearDown
    public void close() {
        embedded.close();
    }

    /** The floor: the handler called directly, the buffer rewound as local delivery does. */
    @Benchmark
    public long baseline() throws Exception {
        handler.handle(endpoint, buffer.rewind());
        return reader.last();
    }

    @Benchmark
    public long polylink() {
        startpoint.send(HANDLER, buffer);
        return reader.last();
    }
}
