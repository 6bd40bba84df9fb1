package io.polylink.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Delivery;
import io.polylink.Endpoint;
import io.polylink.Startpoint;
import io.polylink.testkit.Await;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** An inline handler's send never waits for a link another thread holds. */
class HandOffTest {

    private static final int STREAM = 1500;

    private final PipeMethod.Network network = new PipeMethod.Network();
    private final PipeMethod pipeA = new PipeMethod(network, "pipe");
    private final EmbeddedContext a = EmbeddedContext.open().add(pipeA, 10);
    private final EmbeddedContext b = EmbeddedContext.open().add(new PipeMethod(network, "pipe"), 10);

    @AfterEach
    void close() {
        a.close();
        b.close();
        Await.noThreads("polylink-");
    }

    /**
     * The deadlock behind a 15 s stall: a thread holding the link b → a waits for the peer (here,
     * room in a's full pipe; in the field, an aead handshake), while what it waits for needs b's
     * receiving thread, which an inline handler keeps sending on that same link.
     */
    @Test
    void anInlineHandlerSendsOnALinkAnotherThreadHoldsWhileWaitingForThePeer() throws InterruptedException {
        CountDownLatch replySent = new CountDownLatch(1);
        AtomicBoolean first = new AtomicBoolean(true);
        AtomicInteger atA = new AtomicInteger();
        // a's receiving thread waits in its first delivery until b's inline handler has sent.
        Endpoint sinkA = a.context().createEndpoint().register(1, Delivery.INLINE, (e, m) -> {
            if (first.compareAndSet(true, false)) {
                assertTrue(replySent.await(10, TimeUnit.SECONDS), "b's inline handler never sent");
            }
            atA.incrementAndGet();
        });
        Startpoint bToA = b.context().startpoint(sinkA.startpoint().toText());
        Endpoint inlineAtB = b.context().createEndpoint().register(1, Delivery.INLINE, (e, m) -> {
            bToA.send(1, b.context().allocateBuffer(8).putLong(-1));
            replySent.countDown();
        });
        Startpoint aToB = a.context().startpoint(inlineAtB.startpoint().toText());
        AtomicReference<Throwable> senderFailed = new AtomicReference<>();
        Thread sender = new Thread(() -> {
            try {
                for (long i = 0; i < STREAM; i++) {
                    bToA.send(1, b.context().allocateBuffer(8).putLong(i));
                }
            } catch (Throwable t) {
                senderFailed.set(t);
            }
        }, "test-sender");
        sender.start();
        try {
            // a's pipe (1024 frames) fills: the sender now waits for room, holding the link.
            Await.until(() -> pipeA.anInboxFull() && sender.getState() == Thread.State.TIMED_WAITING,
                Duration.ofSeconds(10), () -> "the sender never filled a's pipe");

            aToB.send(1, a.context().allocateBuffer(8).putLong(0));

            sender.join(TimeUnit.SECONDS.toMillis(20));
            assertNull(senderFailed.get(), () -> "the sender failed: " + senderFailed.get());
            Await.until(() -> atA.get() == STREAM + 1, Duration.ofSeconds(10),
                () -> atA.get() + " of " + (STREAM + 1) + " RSRs reached a");
            assertEquals(STREAM + 1, atA.get());
        } finally {
            replySent.countDown();
            sender.join(TimeUnit.SECONDS.toMillis(20));
        }
    }

    /**
     * An inline handler that forwards to a context it has no connection to yet: connecting could
     * take a connect timeout, and the receiving thread serves the method's other links meanwhile.
     * The executor connects; the forwarded RSRs wait, numbered, and go in order once it has.
     */
    @Test
    void anInlineHandlerForwardingToAPeerNotYetConnectedLeavesTheConnectToTheExecutor() throws Exception {
        try (Relay relay = new Relay()) {
            relay.forward(0);
            // The executor now connects, holding the link to c; the handler sends on it again.
            relay.awaitConnecting();
            relay.forwardWhileConnecting(1, 5);
            assertTrue(!relay.pipeB.connectingThreads.get(0).equals(relay.receivingThread.get()),
                "b's receiving thread " + relay.receivingThread.get() + " made the connect");

            relay.gate.countDown();
            relay.awaitAtC(java.util.List.of(0L, 1L, 2L, 3L, 4L));
            relay.forward(5);
            relay.awaitAtC(java.util.List.of(0L, 1L, 2L, 3L, 4L, 5L));
        }
    }

    /**
     * Once the executor's connect has failed, the handler's sends fail at once with its reason,
     * rather than pile up behind the retry: what a receiving thread keeps stays bounded. What was
     * kept before goes, in order, once connecting works again.
     */
    @Test
    void anInlineHandlerHearsAtOnceThatConnectingFailedAndWhatItKeptFollowsLater() {
        try (Relay relay = new Relay()) {
            relay.gate.countDown();
            relay.pipeB.failConnects("port closed");
            long[] sent = {0};
            Await.until(() -> {
                relay.forward(sent[0]++);
                return !relay.refusals.isEmpty();
            }, Duration.ofSeconds(10), () -> "no send of b's handler failed: " + relay.pipeB.connectingThreads);
            assertTrue(relay.refusals.get(0).contains("port closed"), relay.refusals.get(0));
            int refusedBefore = relay.refusals.size();
            for (int i = 0; i < 1000; i++) {
                relay.forward(sent[0]++);
            }
            relay.forwardWhileRefused(); // behind every forward on the same link: all were handled
            // Only a send that met the once-a-second retry holding the link is handed off instead.
            assertTrue(relay.refusals.size() - refusedBefore >= 990,
                (relay.refusals.size() - refusedBefore) + " of 1000 sends refused after connecting failed");

            relay.pipeB.failConnects(null);
            long last = sent[0];
            Await.until(() -> {
                relay.forward(sent[0]++);
                return !relay.atC.isEmpty() && relay.atC.get(relay.atC.size() - 1) >= last;
            }, Duration.ofSeconds(10), () -> "c received " + relay.atC + " after connecting worked again");
            java.util.Set<Long> refused = relay.refusals.stream()
                .map(r -> Long.parseLong(r.substring(0, r.indexOf(':')))).collect(java.util.stream.Collectors.toSet());
            assertEquals(0L, relay.atC.get(0), "the RSR kept first came first");
            for (int i = 1; i < relay.atC.size(); i++) {
                assertTrue(relay.atC.get(i) > relay.atC.get(i - 1), "out of order at c: " + relay.atC);
            }
            assertTrue(relay.atC.stream().noneMatch(refused::contains), "a refused RSR arrived: " + relay.atC);
        }
    }

    /** The same while another thread connects the link, before the handler has ever used it. */
    @Test
    void anInlineHandlerNeverWaitsForAnotherThreadConnectingItsLink() throws Exception {
        try (Relay relay = new Relay()) {
            Thread first = new Thread(() -> relay.bToC.send(1, relay.b.context().allocateBuffer(8).putLong(-1)),
                "test-first-sender");
            first.start();
            try {
                relay.awaitConnecting();
                relay.forwardWhileConnecting(0, 5);
            } finally {
                relay.gate.countDown();
                first.join(TimeUnit.SECONDS.toMillis(20));
            }
            // The two threads' sends overlapped, so either may go first; each thread's stay in order.
            Await.until(() -> relay.atC.size() >= 6, Duration.ofSeconds(10), () -> "c received " + relay.atC);
            assertEquals(java.util.List.of(0L, 1L, 2L, 3L, 4L), relay.atC.stream().filter(x -> x >= 0).toList());
            assertEquals(6, relay.atC.size(), () -> "c received " + relay.atC);
        }
    }

    /**
     * a sends to b, whose inline handler forwards to c over a startpoint b has not used yet; b's
     * connects wait at {@link #gate}. A second handler at b counts what else arrives meanwhile.
     */
    private final class Relay implements AutoCloseable {
        final EmbeddedContext c = EmbeddedContext.open().add(new PipeMethod(network, "pipe"), 10);
        final PipeMethod pipeB = new PipeMethod(network, "pipe");
        final EmbeddedContext b = EmbeddedContext.open().add(pipeB, 10);
        final CountDownLatch gate = new CountDownLatch(1);
        final java.util.List<Long> atC = new java.util.concurrent.CopyOnWriteArrayList<>();
        final AtomicReference<String> receivingThread = new AtomicReference<>();
        final AtomicInteger counted = new AtomicInteger();
        final java.util.List<String> refusals = new java.util.concurrent.CopyOnWriteArrayList<>();
        final Startpoint bToC;
        final Startpoint aToB;

        Relay() {
            Endpoint sinkC = c.context().createEndpoint().register(1, Delivery.INLINE, (e, m) -> atC.add(m.getLong()));
            bToC = b.context().startpoint(sinkC.startpoint().toText());
            Endpoint atB = b.context().createEndpoint()
                .register(1, Delivery.INLINE, (e, m) -> {
                    receivingThread.set(Thread.currentThread().getName());
                    long value = m.getLong();
                    try {
                        bToC.send(1, b.context().allocateBuffer(8).putLong(value));
                    } catch (io.polylink.LinkException refused) {
                        refusals.add(value + ": " + refused.getMessage());
                    }
                })
                .register(2, Delivery.INLINE, (e, m) -> counted.incrementAndGet());
            aToB = a.context().startpoint(atB.startpoint().toText());
            pipeB.connectGate = gate;
        }

        void forward(long value) {
            aToB.send(1, a.context().allocateBuffer(8).putLong(value));
        }

        void awaitConnecting() {
            Await.until(() -> pipeB.connectingThreads.size() == 1, Duration.ofSeconds(10),
                () -> "b never started connecting to c");
        }

        /** Forwards {@code from} to {@code to - 1}, then proves b's receiving thread was free throughout. */
        void forwardWhileConnecting(long from, long to) {
            for (long i = from; i < to; i++) {
                forward(i);
            }
            int before = counted.get();
            for (int i = 0; i < 10; i++) {
                aToB.send(2, a.context().allocateBuffer(0));
            }
            Await.until(() -> counted.get() == before + 10, Duration.ofSeconds(10),
                () -> (counted.get() - before) + " of 10 RSRs delivered at b while its connect to c waits: the "
                    + "receiving thread is held");
            assertEquals(java.util.List.of(), atC, "c received before b could connect to it");
            assertEquals(1, pipeB.connectingThreads.size(), () -> "b connected " + pipeB.connectingThreads);
        }

        /** Proves b's receiving thread is free while the handler's sends are refused. */
        void forwardWhileRefused() {
            int before = counted.get();
            for (int i = 0; i < 10; i++) {
                aToB.send(2, a.context().allocateBuffer(0));
            }
            Await.until(() -> counted.get() == before + 10, Duration.ofSeconds(10),
                () -> (counted.get() - before) + " of 10 RSRs delivered at b after its connect to c failed");
        }

        void awaitAtC(java.util.List<Long> expected) {
            Await.until(() -> atC.size() >= expected.size(), Duration.ofSeconds(10), () -> "c received " + atC);
            assertEquals(expected, atC);
        }

        @Override
        public void close() {
            gate.countDown();
            try {
                b.close();
            } finally {
                c.close();
            }
        }
    }
}
