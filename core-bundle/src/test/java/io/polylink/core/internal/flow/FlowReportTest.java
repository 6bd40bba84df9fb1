package io.polylink.core.internal.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Startpoint;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.core.internal.Internals;
import io.polylink.core.internal.PipeMethod;
import io.polylink.testkit.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the shell and JMX read of a flow never waits for long on its lock: a sender may hold it
 * while it waits for its peer, and one hit by a fault may never let go of it.
 */
class FlowReportTest {

    /** The second a report waits, and what a machine shared with other builds may add to it. */
    private static final long REPORT_LIMIT_MS = 3_000;

    private final PipeMethod.Network network = new PipeMethod.Network();
    private final EmbeddedContext a = EmbeddedContext.open().add(new PipeMethod(network, "pipe"), 10);
    private final EmbeddedContext b = EmbeddedContext.open().add(new PipeMethod(network, "pipe"), 10);
    private final AtomicInteger delivered = new AtomicInteger();
    private final Startpoint toB = a.context().startpoint(b.context().createEndpoint()
        .register(1, (e, m) -> delivered.incrementAndGet()).startpoint().toText());
    private final CountDownLatch letGo = new CountDownLatch(1);
    private Thread holder;

    @AfterEach
    void close() throws InterruptedException {
        letGo.countDown();
        if (holder != null) {
            holder.join(TimeUnit.SECONDS.toMillis(10));
        }
        a.close();
        b.close();
        Await.noThreads("polylink-");
    }

    @Test
    void aFlowHeldByAnotherThreadIsReportedBusyWithinASecondAndItsCountsComeBackOnceLetGo()
        throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            toB.send(1, a.context().allocateBuffer(8).putLong(i));
        }
        Await.until(() -> delivered.get() == 3, Duration.ofSeconds(10), () -> delivered.get() + " of 3 delivered");
        OutboundFlow flow = FlowProbe.onlyFlow(Internals.flows(a));
        CountDownLatch taken = new CountDownLatch(1);
        holder = new Thread(() -> {
            flow.lock.lock();
            try {
                taken.countDown();
                letGo.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                flow.lock.unlock();
            }
        }, "test-holder");
        holder.start();
        assertTrue(taken.await(10, TimeUnit.SECONDS), "the holder never took the flow's lock");

        record Reports(List<String> links, int unacknowledged, long sent) {}
        Reports busy = assertTimeoutPreemptively(Duration.ofMillis(3 * REPORT_LIMIT_MS),
            () -> new Reports(a.links(), flow.unacknowledged(), flow.sent()), "a report waited for the holder");

        assertEquals(1, busy.links().size(), () -> "links: " + busy.links());
        assertTrue(busy.links().get(0).matches(".* busy +busy"), () -> "not busy: " + busy.links().get(0));
        assertEquals(OutboundFlow.BUSY, busy.unacknowledged());
        assertEquals(OutboundFlow.BUSY, busy.sent());

        letGo.countDown();
        holder.join(TimeUnit.SECONDS.toMillis(10));
        assertEquals(3, flow.sent());
        assertTrue(a.links().get(0).matches(".* 3 +[0-3]"), () -> "no counts once let go: " + a.links());
    }
}
