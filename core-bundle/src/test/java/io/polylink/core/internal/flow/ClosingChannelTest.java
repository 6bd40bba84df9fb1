package io.polylink.core.internal.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Delivery;
import io.polylink.Descriptor;
import io.polylink.Endpoint;
import io.polylink.Startpoint;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.core.internal.GateTransform;
import io.polylink.core.internal.Internals;
import io.polylink.core.internal.PipeMethod;
import io.polylink.core.internal.RepeatTransform;
import io.polylink.core.internal.channel.ChannelSender;
import io.polylink.testkit.Await;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A connection that closes while a flow is being bound to it: the flow must not be left on the
 * closed channel with RSRs the peer never got and nobody to send them again.
 */
class ClosingChannelTest {

    private static final Duration LIMIT = Duration.ofSeconds(10);
    private static final int PLAIN = 1;
    private static final int GATED = 2;

    private final PipeMethod.Network network = new PipeMethod.Network();
    private final GateTransform gateA = new GateTransform(false);
    private final EmbeddedContext a = EmbeddedContext.open().add(new PipeMethod(network, "pipe"), 10).add(gateA);
    private final EmbeddedContext b = EmbeddedContext.open().add(new PipeMethod(network, "pipe"), 10)
        .add(new GateTransform(true));
    private final CountDownLatch controlThreadFree = new CountDownLatch(1);
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private final AtomicReference<Throwable> failed = new AtomicReference<>();

    @AfterEach
    void close() throws InterruptedException {
        gateA.open();
        controlThreadFree.countDown();
        for (Thread t : threads) {
            t.join(LIMIT.toMillis());
        }
        a.close();
        b.close();
        Await.noThreads("polylink-");
    }

    /**
     * How BundleUpdatesInNodeIT's echo flow can strand. A mover takes the pooled connection and
     * waits for its channel, which a sender holds while it waits in encode for the peer (as for
     * aead's hello). The connection closes; the flow, unbound that moment, is passed over. The
     * mover then finds the flow's stack already announced on the closed channel, and its RSRs
     * join those an inline handler deferred there for the control thread, which is busy
     * elsewhere: no send fails, so nothing tells the flow to move again, and no send follows.
     */
    @Test
    void aFlowBoundToItsConnectionAsItClosesIsMovedWithItsRsrs() throws InterruptedException {
        List<Long> plainAtB = new CopyOnWriteArrayList<>();
        Endpoint sink = b.context().createEndpoint()
            .register(PLAIN, (e, m) -> plainAtB.add(m.getLong()))
            .register(GATED, (e, m) -> { });
        Startpoint plain = a.context().startpoint(sink.startpoint().toText());
        Startpoint gated = a.context().startpoint(sink.startpoint().toText()).editTable(t -> t.insert(0,
            new Descriptor("gate/pipe", t.entries().stream()
                .filter(d -> d.stack().equals("pipe")).findFirst().orElseThrow().address())));
        CountDownLatch inlineSent = new CountDownLatch(1);
        Endpoint inlineAtA = a.context().createEndpoint().register(1, Delivery.INLINE, (e, m) -> {
            plain.send(PLAIN, a.context().allocateBuffer(8).putLong(m.getLong()));
            inlineSent.countDown();
        });

        // Ten RSRs the peer delivered and, asked every 64, has not acknowledged.
        for (long i = 0; i < 10; i++) {
            plain.send(PLAIN, a.context().allocateBuffer(8).putLong(i));
        }
        Await.until(() -> plainAtB.size() == 10, LIMIT, () -> plainAtB.size() + " of 10 delivered");
        PipeMethod.End connection = (PipeMethod.End) a.method("pipe").connect(b.context().id(), null, Map.of());
        OutboundFlow flow = FlowProbe.onlyFlow(Internals.flows(a));

        // Deferred RSRs wait from now on; another flow's sender holds the channel, waiting in encode,
        // so the inline handler's RSR is deferred.
        Internals.controlSender(a).schedule(this::awaitControlThreadFree);
        start("test-gated-sender", () -> gated.send(GATED, a.context().allocateBuffer(8).putLong(-1)));
        assertTrue(gateA.waiting.await(LIMIT.toMillis(), TimeUnit.MILLISECONDS), "the gated send never waited in encode");
        b.context().startpoint(inlineAtA.startpoint().toText()).send(1, b.context().allocateBuffer(8).putLong(10));
        assertTrue(inlineSent.await(LIMIT.toMillis(), TimeUnit.MILLISECONDS), "a's inline handler never sent");

        a.add(new RepeatTransform()); // the flow is stale: a mover binds it again
        Thread mover = start("test-mover", flow::recover);
        Await.until(() -> waitingIn(mover, "bind"), LIMIT,
            () -> "the mover is not waiting for the channel: " + Arrays.toString(mover.getStackTrace()));
        connection.close();
        mover.join(LIMIT.toMillis());
        assertNull(failed.get(), () -> "a thread failed: " + failed.get());

        controlThreadFree.countDown();
        gateA.open();
        List<Long> expected = LongStream.rangeClosed(0, 10).boxed().toList();
        Await.until(() -> plainAtB.equals(expected) && flow.unacknowledged() == 0, LIMIT,
            () -> "the flow was left behind: b has " + plainAtB + "; a's links: " + a.links());
        assertEquals(expected, plainAtB, "once each, in order");
    }

    /**
     * A connection the pool hands out closes before the flow's first frame on it goes (the
     * core reopening its connections after a configuration change, in the field): the flow
     * binds to a new connection, and the send neither fails nor loses its RSR.
     */
    @Test
    void aPooledConnectionThatClosesAsANewFlowBindsIsReplacedAndTheSendGoesThrough() {
        List<Long> atB = new CopyOnWriteArrayList<>();
        Endpoint sink = b.context().createEndpoint().register(PLAIN, (e, m) -> atB.add(m.getLong()));
        Startpoint first = a.context().startpoint(sink.startpoint().toText());
        first.send(PLAIN, a.context().allocateBuffer(8).putLong(1));
        Await.until(() -> atB.size() == 1, LIMIT, () -> "the first RSR did not arrive: " + atB);
        PipeMethod.End pooled = (PipeMethod.End) a.method("pipe").connect(b.context().id(), null, Map.of());

        ((PipeMethod) a.method("pipe")).closeAtNextSend.set(true);
        Endpoint other = b.context().createEndpoint().register(PLAIN, (e, m) -> atB.add(m.getLong()));
        // pinned: a flow of its own (flows are per peer and link options), on the same pooled connection
        a.context().startpoint(other.startpoint().toText()).pin("pipe")
            .send(PLAIN, a.context().allocateBuffer(8).putLong(2));

        assertFalse(pooled.isOpen(), "the pooled connection closed as the second flow bound to it");
        Await.until(() -> atB.equals(List.of(1L, 2L)), LIMIT, () -> "b has " + atB + "; a's links: " + a.links());
        first.send(PLAIN, a.context().allocateBuffer(8).putLong(3));
        Await.until(() -> atB.equals(List.of(1L, 2L, 3L)), LIMIT,
            () -> "the first flow did not move on: b has " + atB + "; a's links: " + a.links());
    }

    /** In the field, a handshake on another connection: deferred RSRs wait for this thread. */
    private void awaitControlThreadFree() {
        try {
            controlThreadFree.await(LIMIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Thread start(String name, Runnable task) {
        Thread t = new Thread(() -> {
            try {
                task.run();
            } catch (Throwable e) {
                failed.compareAndSet(null, e);
            }
        }, name);
        threads.add(t);
        t.start();
        return t;
    }

    private static boolean waitingIn(Thread t, String channelMethod) {
        // parked on the channel's send lock
        return t.getState() == Thread.State.WAITING && Arrays.stream(t.getStackTrace())
            .anyMatch(f -> f.getClassName().equals(ChannelSender.class.getName()) && f.getMethodName().equals(channelMethod));
    }
}
