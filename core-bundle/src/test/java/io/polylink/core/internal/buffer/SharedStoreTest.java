package io.polylink.core.internal.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.core.internal.EmbeddedContext;
import io.polylink.core.internal.Internals;
import io.polylink.core.internal.PipeMethod;
import io.polylink.core.internal.flow.FlowProbe;
import io.polylink.core.internal.flow.OutboundFlow;
import io.polylink.core.internal.wire.TableResolver;
import io.polylink.testkit.Await;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What a flow keeping a buffer's store instead of a copy relies on: the bytes it keeps never change. */
class SharedStoreTest {

    private static final int SIZE = 100_000;

    private final EmbeddedContext embedded = EmbeddedContext.open();
    private final MessageBuffers buffers = Internals.buffers(embedded);
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void close() {
        embedded.close();
        timer.shutdownNow();
    }

    private MessageBufferImpl filled(byte value) {
        MessageBufferImpl m = buffers.allocate(SIZE);
        return (MessageBufferImpl) m.putRaw(bytes(SIZE, value), 0, SIZE);
    }

    private static byte[] bytes(int length, byte value) {
        byte[] b = new byte[length];
        java.util.Arrays.fill(b, value);
        return b;
    }

    private static void assertHolds(SharedStore store, int length, byte value) {
        ByteBuffer view = store.view();
        for (int i = 0; i < length; i++) {
            if (view.get(i) != value) {
                throw new AssertionError("kept byte " + i + " is " + view.get(i) + ", was sent as " + value);
            }
        }
    }

    @Test
    void aBufferSentOnceIsCopiedAndOneSentAgainIsKeptByItsStore() {
        MessageBufferImpl m = filled((byte) 1);
        assertNull(m.share(), "a buffer sent once stays on the heap, to be copied");
        SharedStore kept = m.share();
        assertTrue(kept != null && kept.shared(), "a buffer sent again is kept by its store, held twice");
        assertHolds(kept, SIZE, (byte) 1);
        assertSame(kept, m.share(), "sent unchanged, it is kept by the same store");
        kept.release();
        kept.release();
        assertTrue(!kept.shared(), "only the buffer holds its store once the flows let go");
    }

    @Test
    void clearingAKeptBufferMovesItsWritesToAnotherStoreAndTheKeptBytesStay() {
        MessageBufferImpl m = filled((byte) 1);
        m.share();
        SharedStore kept = m.share();
        m.clear().putRaw(bytes(SIZE, (byte) 2), 0, SIZE);
        assertHolds(kept, SIZE, (byte) 1);
        SharedStore next = m.share();
        assertNotSame(kept, next, "the refilled buffer is in another store");
        assertHolds(next, SIZE, (byte) 2);

        long pooled = buffers.stores.pooledBytes();
        kept.release();
        assertEquals(pooled + kept.capacity(), buffers.stores.pooledBytes(),
            "a store nobody holds any more goes back to the pool");
        next.release();
        m.clear();
        assertEquals(pooled + kept.capacity(), buffers.stores.pooledBytes(),
            "a cleared buffer nobody else holds stays in its store");
    }

    @Test
    void aKeptBufferMovesToStoresSizedByItsMessageNotByItsCapacity() {
        MessageBufferImpl m = buffers.allocate(8 << 20);
        m.putRaw(bytes(SIZE, (byte) 1), 0, SIZE);
        m.share();
        SharedStore kept = m.share();
        assertEquals(1 << 17, kept.capacity(), "moved into a store for its 100 kB message, not its 8 MiB capacity");
        m.clear().putRaw(bytes(SIZE, (byte) 2), 0, SIZE);
        SharedStore next = m.share();
        assertEquals(1 << 17, next.capacity(), "a cleared buffer moves on to a store its last message's size");
        m.putRaw(bytes(3 * SIZE, (byte) 3), 0, 3 * SIZE); // and grows as it must
        assertEquals(4 * SIZE, m.length());
        assertHolds(next, SIZE, (byte) 2);
        kept.release();
        next.release();
    }

    @Test
    void appendingToAKeptBufferLeavesTheKeptBytesAndGrowingMovesIt() {
        MessageBufferImpl m = filled((byte) 1);
        m.share();
        SharedStore kept = m.share();
        m.putRaw(bytes(1000, (byte) 3), 0, 1000);
        assertHolds(kept, SIZE, (byte) 1);
        m.putRaw(bytes(4 * SIZE, (byte) 4), 0, 4 * SIZE); // past the store's capacity
        assertHolds(kept, SIZE, (byte) 1);
        SharedStore grown = m.share();
        assertNotSame(kept, grown);
        assertHolds(grown, SIZE, (byte) 1);
        assertEquals(3, grown.view().get(SIZE + 999));
        assertEquals(4, grown.view().get(5 * SIZE + 999));
        kept.release();
        grown.release();
    }

    @Test
    void aReceivedBufferIsNeverKeptByItsStore() {
        MessageBufferImpl received = buffers.reader().wrap(ByteBuffer.allocateDirect(SIZE + 8), 8, SIZE, TableResolver.NONE);
        assertNull(received.share());
        assertNull(received.share(), "the reader's buffer is overwritten by the next read");
    }

    /**
     * Over a pipe, a buffer refilled larger after the flow let go of its store: the store is
     * written in place again, past where the last send left the buffer's limit.
     */
    @Test
    void aBufferRefilledLargerOnceItsStoreCameBackIsSentWhole() {
        PipeMethod.Network network = new PipeMethod.Network();
        Map<String, Object> acksAtOnce = Map.of("quietAckMs", 1);
        try (EmbeddedContext a = EmbeddedContext.open().add(new PipeMethod(network, "pipe"), 10);
             EmbeddedContext b = EmbeddedContext.open(acksAtOnce).add(new PipeMethod(network, "pipe"), 10)) {
            List<Integer> lengths = new java.util.concurrent.CopyOnWriteArrayList<>();
            io.polylink.Endpoint sink = b.context().createEndpoint().register(1, (e, m) -> lengths.add(m.length()));
            io.polylink.Startpoint toB = a.context().startpoint(sink.startpoint().toText());
            MessageBufferImpl m = (MessageBufferImpl) a.context().allocateBuffer(0);
            int[] sizes = {20_000, 20_000, 100_000, 20_000, 100_000, 600_000};
            for (int i = 0; i < sizes.length; i++) {
                toB.send(1, m.clear().putRaw(bytes(sizes[i], (byte) i), 0, sizes[i]));
                int sent = i + 1;
                Await.until(() -> lengths.size() == sent, Duration.ofSeconds(10), () -> "RSR " + sent + " never came");
                OutboundFlow flow = FlowProbe.onlyFlow(Internals.flows(a));
                Await.until(() -> flow.unacknowledged() == 0, Duration.ofSeconds(10),
                    () -> "the flow still keeps RSR " + sent);
            }
            assertEquals(java.util.Arrays.stream(sizes).boxed().toList(), lengths);
        }
    }

    @Test
    void thePoolRoundsUpKeepsAtMostItsBoundAndShrinksOnceIdle() {
        StorePool pool = new StorePool((task, ms) -> timer.schedule(task, ms, TimeUnit.MILLISECONDS));
        assertEquals(StorePool.MIN_CAPACITY, pool.take(1).capacity());
        assertEquals(1 << 17, pool.take(100_000).capacity());
        List<SharedStore> taken = new ArrayList<>();
        for (long bytes = 0; bytes <= StorePool.MAX_BYTES; bytes += 1 << 20) {
            taken.add(pool.take(1 << 20));
        }
        taken.forEach(SharedStore::release);
        assertEquals(StorePool.MAX_BYTES, pool.pooledBytes(), "kept up to the bound, the rest left to the collector");
        SharedStore again = pool.take(1 << 20);
        assertTrue(taken.contains(again), "a store of the size class comes back");
        assertEquals(StorePool.MAX_BYTES - (1 << 20), pool.pooledBytes());
        Await.until(() -> pool.pooledBytes() <= StorePool.IDLE_BYTES, Duration.ofSeconds(10),
            () -> pool.pooledBytes() + " bytes still pooled a while after the last store came back");
    }
}
