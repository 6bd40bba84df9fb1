package io.polylink.core.internal.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Delivery;
import io.polylink.Endpoint;
import io.polylink.Startpoint;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.core.internal.PipeMethod;
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
}
