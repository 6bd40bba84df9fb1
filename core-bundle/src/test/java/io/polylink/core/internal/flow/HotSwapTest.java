package io.polylink.core.internal.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Endpoint;
import io.polylink.MessageBuffer;
import io.polylink.PolylinkException;
import io.polylink.Startpoint;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.core.internal.PipeMethod;
import io.polylink.testkit.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Methods removed and added while senders run flat out, between two contexts with two pipe
 * methods. A pipe drops whatever is queued in it when it closes, so only the core's flows (their
 * numbering, acknowledgements and replay) stand between a swap and a lost RSR.
 */
class HotSwapTest {

    private static final int SENDERS = 4;
    private static final int CYCLES = 25;

    private final PipeMethod.Network network = new PipeMethod.Network();
    private final EmbeddedContext a = EmbeddedContext.open();
    private final EmbeddedContext b = EmbeddedContext.open();
    private final PipeMethod slowA = new PipeMethod(network, "slow");
    private final PipeMethod fastB = new PipeMethod(network, "fast");
    private final PipeMethod slowB = new PipeMethod(network, "slow");
    private final AtomicLongArray next = new AtomicLongArray(SENDERS);
    private final List<String> problems = new CopyOnWriteArrayList<>();
    private final Endpoint sink;
    /** Payload bytes after the stream and sequence number; large ones are kept in reused copies. */
    private volatile int padding;

    HotSwapTest() {
        a.add(slowA, 20);
        b.add(fastB, 10).add(slowB, 20);
        sink = b.context().createEndpoint().register(1, (e, m) -> {
            int stream = m.getInt();
            long seq = m.getLong();
            long expected = next.get(stream);
            if (seq != expected && problems.size() < 20) {
                problems.add("stream " + stream + ": expected " + expected + ", got " + seq);
            }
            byte[] got = new byte[m.length() - 12];
            m.getRaw(got, 0, got.length);
            if (got.length > 0 && !Arrays.equals(got, fill(new byte[got.length], stream, seq))
                && problems.size() < 20) {
                problems.add("stream " + stream + ": RSR " + seq + " arrived with other bytes than were sent");
            }
            next.set(stream, seq + 1);
        });
    }

    @AfterEach
    void close() {
        a.close();
        b.close();
        Await.noThreads("polylink-");
    }

    @Test
    void sendersLoseNothingWhileTheSendersMethodComesAndGoes() throws Exception {
        swapTheSendersMethod(CYCLES, 500, 200);
    }

    /** Senders run while the sending side's fast method is removed and added again {@code cycles} times. */
    private void swapTheSendersMethod(int cycles, long first, long between) throws Exception {
        Set<String> stacks = ConcurrentHashMap.newKeySet();
        try (Senders senders = new Senders(stacks)) {
            PipeMethod fastA = new PipeMethod(network, "fast");
            a.add(fastA, 10);
            senders.awaitProgress(first);
            for (int cycle = 0; cycle < cycles; cycle++) {
                a.remove(fastA);
                senders.awaitProgress(between);
                fastA = new PipeMethod(network, "fast");
                a.add(fastA, 10);
                senders.awaitProgress(between);
            }
            senders.stop();
            awaitAllDelivered(senders);
            assertEquals(Set.of("fast", "slow"), stacks, "links moved between both methods");
        }
    }

    @Test
    void sendersLoseNothingWhenTheReceiversMethodLeavesUnderThem() throws Exception {
        PipeMethod fastA = new PipeMethod(network, "fast");
        a.add(fastA, 10);
        Set<String> stacks = ConcurrentHashMap.newKeySet();
        try (Senders senders = new Senders(stacks)) {
            senders.awaitProgress(2000);
            b.remove(fastB); // closes the pipes: what is queued in them is gone
            senders.awaitProgress(2000);
            senders.stop();
            awaitAllDelivered(senders);
            assertEquals(Set.of("fast", "slow"), stacks);
        }
    }

    @Test
    void largeRsrsKeptInReusedCopiesArriveIntactAcrossSwaps() throws Exception {
        padding = 300_000;
        swapTheSendersMethod(5, 100, 50);
    }

    /** Fills {@code bytes} with a pattern of the stream and the RSR's sequence number. */
    private static byte[] fill(byte[] bytes, int stream, long seq) {
        long x = seq * 0x9E3779B97F4A7C15L + stream;
        for (int i = 0; i < bytes.length; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            bytes[i] = (byte) (x >>> 56);
        }
        return bytes;
    }

    private void awaitAllDelivered(Senders senders) {
        Await.until(() -> {
            for (int i = 0; i < SENDERS; i++) {
                if (next.get(i) != senders.accepted.get(i)) {
                    return false;
                }
            }
            return true;
        }, Duration.ofSeconds(20), () -> "delivered " + next + " of accepted " + senders.accepted);
        assertEquals(List.of(), problems);
        assertEquals(List.of(), senders.failures, "no send failed: one method was always there");
    }

    /** Threads that each send a numbered stream through their own startpoint until stopped. */
    private final class Senders implements AutoCloseable {
        final AtomicLongArray accepted = new AtomicLongArray(SENDERS);
        final List<PolylinkException> failures = new CopyOnWriteArrayList<>();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final List<Thread> threads = new ArrayList<>();

        Senders(Set<String> stacks) {
            for (int i = 0; i < SENDERS; i++) {
                int stream = i;
                Startpoint s = a.context().startpoint(sink.startpoint().toText());
                Thread t = new Thread(() -> {
                    MessageBuffer m = a.context().allocateBuffer(64);
                    byte[] pad = new byte[padding];
                    while (running.get()) {
                        try {
                            long seq = accepted.get(stream);
                            m.clear().putInt(stream).putLong(seq);
                            if (pad.length > 0) {
                                m.putRaw(fill(pad, stream, seq), 0, pad.length);
                            }
                            s.send(1, m);
                            accepted.incrementAndGet(stream);
                            s.explain().get(0).chosen().ifPresent(e -> stacks.add(e.descriptor().stack()));
                        } catch (PolylinkException e) {
                            if (failures.size() < 20) {
                                failures.add(e);
                            }
                        }
                    }
                }, "test-sender-" + i);
                threads.add(t);
                t.start();
            }
        }

        long total() {
            long sum = 0;
            for (int i = 0; i < SENDERS; i++) {
                sum += accepted.get(i);
            }
            return sum;
        }

        void awaitProgress(long rsrs) {
            long from = total();
            Await.until(() -> total() >= from + rsrs, Duration.ofSeconds(20),
                () -> "senders stalled at " + total() + "; failures " + failures);
        }

        void stop() throws InterruptedException {
            running.set(false);
            for (Thread t : threads) {
                t.join(10_000);
                assertTrue(!t.isAlive(), t.getName() + " did not stop");
            }
        }

        @Override
        public void close() throws InterruptedException {
            stop();
        }
    }
}
