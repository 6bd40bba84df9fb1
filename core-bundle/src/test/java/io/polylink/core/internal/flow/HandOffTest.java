package io.polylink.core.internal.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Delivery;
import io.polylink.Endpoint;
import io.polylink.LinkException;
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
    /** Lets a's receiving thread go on from its first delivery, where it waits. */
    private final CountDownLatch releaseA = new CountDownLatch(1);
    private final AtomicInteger atA = new AtomicInteger();
    private final Startpoint bToA;
    private final AtomicReference<Throwable> senderFailed = new AtomicReference<>();
    /** Sends {@link #STREAM} RSRs b → a, holding the link while it waits for room in a's pipe. */
    private final Thread sender;

    HandOffTest() {
        AtomicBoolean first = new AtomicBoolean(true);
        Endpoint sinkA = a.context().createEndpoint().register(1, Delivery.INLINE, (e, m) -> {
            if (first.compareAndSet(true, false)) {
                assertTrue(releaseA.await(10, TimeUnit.SECONDS), "a was never released");
            }
            atA.incrementAndGet();
        });
        bToA = b.context().startpoint(sinkA.startpoint().toText());
        sender = new Thread(() -> {
            try {
                for (long i = 0; i < STREAM; i++) {
                    bToA.send(1, b.context().allocateBuffer(8).putLong(i));
                }
            } catch (Throwable t) {
                senderFailed.set(t);
            }
        }, "test-sender");
    }

    @AfterEach
    void close() throws InterruptedException {
        releaseA.countDown();
        sender.join(TimeUnit.SECONDS.toMillis(20));
        a.close();
        b.close();
        Await.noThreads("polylink-");
    }

    /** Starts the sender and waits until a's pipe (1024 frames) is full and the sender waits for room, holding the link. */
    private void holdTheLink() {
        sender.start();
        Await.until(() -> pipeA.anInboxFull() && sender.getState() == Thread.State.TIMED_WAITING,
            Duration.ofSeconds(10), () -> "the sender never filled a's pipe");
    }

    /** Lets a go on, and waits for the sender and for {@code expected} RSRs to reach a. */
    private void releaseAndAwait(int expected) throws InterruptedException {
        releaseA.countDown();
        sender.join(TimeUnit.SECONDS.toMillis(20));
        assertNull(senderFailed.get(), () -> "the sender failed: " + senderFailed.get());
        Await.until(() -> atA.get() == expected, Duration.ofSeconds(10),
            () -> atA.get() + " of " + expected + " RSRs reached a");
    }

    /**
     * The deadlock behind a 15 s stall: a thread holding the link b → a waits for the peer (here,
     * room in a's full pipe; in the field, an aead handshake), while what it waits for needs b's
     * receiving thread, which an inline handler keeps sending on that same link.
     */
    @Test
    void anInlineHandlerSendsOnALinkAnotherThreadHoldsWhileWaitingForThePeer() throws InterruptedException {
        // a's receiving thread waits in its first delivery until b's inline handler has sent.
        Endpoint inlineAtB = b.context().createEndpoint().register(1, Delivery.INLINE, (e, m) -> {
            bToA.send(1, b.context().allocateBuffer(8).putLong(-1));
            releaseA.countDown();
        });
        holdTheLink();

        a.context().startpoint(inlineAtB.startpoint().toText()).send(1, a.context().allocateBuffer(8).putLong(0));

        releaseAndAwait(STREAM + 1);
        assertEquals(STREAM + 1, atA.get());
    }

    /**
     * While a thread holding the link b → a waits for a, a's RSRs keep coming to b's inline handler,
     * which answers each on that link: what it hands off to the holder is bounded, and past the
     * bound its sends fail at once instead of growing b's memory for as long as a likes.
     */
    @Test
    void whatInlineHandlersHandOffToTheHolderOfALinkIsBounded() throws InterruptedException {
        int large = 64 * 1024;
        AtomicInteger refused = new AtomicInteger();
        Endpoint inlineAtB = b.context().createEndpoint().register(1, Delivery.INLINE, (e, m) -> {
            try {
                bToA.send(1, b.context().allocateBuffer(large).putRaw(new byte[large], 0, large));
            } catch (LinkException full) {
                assertTrue(full.getMessage().contains("RSRs sent from inline handlers already wait for the sender "
                    + "that holds the link (4194304 bytes)"), full.getMessage());
                refused.incrementAndGet();
            }
        });
        Startpoint aToB = a.context().startpoint(inlineAtB.startpoint().toText());
        holdTheLink();

        int asked = 2 * (int) (HandOffs.MAX_BYTES / large);
        for (int i = 0; i < asked; i++) {
            aToB.send(1, a.context().allocateBuffer(8).putLong(i));
        }
        Await.until(() -> inlineAtB.statistics().messagesReceived() == asked, Duration.ofSeconds(10),
            () -> inlineAtB.statistics().messagesReceived() + " of " + asked + " reached b's handler");

        int handedOff = asked - refused.get();
        assertTrue(handedOff > 0 && handedOff <= HandOffs.MAX_BYTES / large,
            handedOff + " RSRs of " + large + " bytes handed off");
        releaseAndAwait(STREAM + handedOff);
    }
}
