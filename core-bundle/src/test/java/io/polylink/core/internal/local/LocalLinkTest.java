package io.polylink.core.internal.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Context;
import io.polylink.Delivery;
import io.polylink.Descriptor;
import io.polylink.Endpoint;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import io.polylink.core.internal.ChecksumTransform;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.testkit.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LocalLinkTest {

    private final EmbeddedContext embedded = EmbeddedContext.open();
    private final Context context = embedded.context();

    @AfterEach
    void close() {
        embedded.close();
        Await.noThreads("polylink-");
    }

    @Test
    void inlineHandlerRunsOnTheSendersThreadWithThePayload() {
        AtomicReference<String> seen = new AtomicReference<>();
        Endpoint endpoint = context.createEndpoint("attached").register(7, (e, m) ->
            seen.set(Thread.currentThread().getName() + "|" + m.getString() + "|" + m.getLong()
                + "|" + e.attachment()));
        MessageBuffer message = context.allocateBuffer(16).putString("hello").putLong(42);

        endpoint.startpoint().send(7, message);

        assertEquals(Thread.currentThread().getName() + "|hello|42|attached", seen.get());
        assertEquals(1, endpoint.statistics().messagesReceived());
        assertEquals(message.length(), context.statistics().bytesSent());
    }

    @Test
    void executorHandlerGetsItsOwnCopyAndSeesOneEndpointsRsrsInOrder() {
        List<Integer> seen = Collections.synchronizedList(new ArrayList<>());
        List<String> threads = new CopyOnWriteArrayList<>();
        Endpoint endpoint = context.createEndpoint().register(1, Delivery.EXECUTOR, (e, m) -> {
            threads.add(Thread.currentThread().getName());
            seen.add(m.getInt());
        });
        Startpoint startpoint = endpoint.startpoint();
        MessageBuffer message = context.allocateBuffer(4);
        for (int i = 0; i < 10_000; i++) {
            startpoint.send(1, message.clear().putInt(i));
        }

        Await.until(() -> seen.size() == 10_000, Duration.ofSeconds(10), () -> seen.size() + " of 10000 delivered");
        for (int i = 0; i < 10_000; i++) {
            assertEquals(i, seen.get(i), "RSR " + i + " out of order");
        }
        assertTrue(threads.stream().allMatch(t -> t.startsWith("polylink-handler-")), threads::toString);
    }

    @Test
    void multicastReachesEveryEndpoint() {
        List<Integer> seen = new CopyOnWriteArrayList<>();
        Startpoint all = null;
        for (int i = 0; i < 3; i++) {
            int which = i;
            Startpoint one = context.createEndpoint().register(2, (e, m) -> seen.add(which * 100 + m.getInt()))
                .startpoint();
            all = all == null ? one : all.join(one);
        }

        all.send(2, context.allocateBuffer(4).putInt(5));

        assertEquals(List.of(5, 105, 205), seen);
        assertEquals(3, all.targets().size());
    }

    @Test
    void startpointSentInsideAnRsrIsUsedByTheReceiverToReply() {
        List<String> replies = new CopyOnWriteArrayList<>();
        Endpoint client = context.createEndpoint().register(2, (e, m) -> replies.add(m.getString()));
        Endpoint server = context.createEndpoint().register(1, (e, m) -> {
            Startpoint replyTo = m.getStartpoint();
            String question = m.getString();
            replyTo.send(2, context.allocateBuffer(32).putString("re: " + question));
        });

        server.startpoint().send(1, context.allocateBuffer(64).putStartpoint(client.startpoint()).putString("ping"));

        assertEquals(List.of("re: ping"), replies);
    }

    @Test
    void unknownHandlerAndThrowingHandlerAreCountedAndLaterRsrsStillArrive() {
        List<Integer> seen = new CopyOnWriteArrayList<>();
        Endpoint endpoint = context.createEndpoint()
            .register(1, (e, m) -> seen.add(m.getInt()))
            .register(3, (e, m) -> {
                throw new IllegalStateException("handler bug");
            });
        Startpoint startpoint = endpoint.startpoint();
        MessageBuffer message = context.allocateBuffer(4);

        startpoint.send(99, message.clear().putInt(1));
        startpoint.send(3, message.clear().putInt(2));
        startpoint.send(1, message.clear().putInt(3));

        assertEquals(List.of(3), seen);
        assertEquals(2, endpoint.statistics().errors());
        assertEquals(2, context.statistics().errors());
    }

    @Test
    void closedEndpointDropsRsrsAndItsSlotsNextOwnerDoesNotGetThem() {
        List<String> seen = new CopyOnWriteArrayList<>();
        Endpoint first = context.createEndpoint().register(1, (e, m) -> seen.add("first"));
        Startpoint stale = first.startpoint();
        first.close();
        Endpoint second = context.createEndpoint().register(1, (e, m) -> seen.add("second"));

        stale.send(1, context.allocateBuffer(0));
        second.startpoint().send(1, context.allocateBuffer(0));

        assertEquals(List.of("second"), seen);
        assertEquals(1, context.statistics().errors());
    }

    @Test
    void receivedMessageIsReadOnly() {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Endpoint endpoint = context.createEndpoint().register(1, (e, m) -> {
            try {
                m.putInt(1);
            } catch (IllegalStateException expected) {
                failure.set(expected);
            }
        });
        MessageBuffer message = context.allocateBuffer(4).putInt(9);

        endpoint.startpoint().send(1, message);

        assertTrue(failure.get().getMessage().contains("read-only"), failure.get()::getMessage);
        message.putInt(10);
        assertEquals(8, message.length(), "the sender's buffer is writable again after the send");
    }

    @Test
    void transformedLocalStackGoesThroughTheTransformAndArrivesIntact() {
        ChecksumTransform crc = new ChecksumTransform("crc");
        embedded.add(crc);
        List<String> seen = new CopyOnWriteArrayList<>();
        Endpoint endpoint = context.createEndpoint().register(1, (e, m) -> seen.add(m.getString()));
        Startpoint startpoint = endpoint.startpoint()
            .editTable(t -> t.insert(0, new Descriptor("crc/local", new byte[0])));

        startpoint.send(1, context.allocateBuffer(8).putString("checked"));
        startpoint.send(1, context.allocateBuffer(8).putString("twice"));

        assertEquals(List.of("checked", "twice"), seen);
        assertEquals("crc/local", startpoint.explain().get(0).chosen().orElseThrow().descriptor().stack());
        assertEquals(1, crc.openSessions.get());
        embedded.remove(crc);
        assertEquals(0, crc.openSessions.get(), "removing the transform closes its sessions");
        startpoint.send(1, context.allocateBuffer(8).putString("plain"));
        assertEquals("local", startpoint.explain().get(0).chosen().orElseThrow().descriptor().stack());
        assertEquals(List.of("checked", "twice", "plain"), seen);
    }

    @Test
    void handlerSendingFromInsideALoopbackDeliveryDoesNotNest() {
        embedded.add(new ChecksumTransform("crc"));
        List<Integer> order = new CopyOnWriteArrayList<>();
        AtomicReference<Startpoint> self = new AtomicReference<>();
        Endpoint endpoint = context.createEndpoint().register(1, (e, m) -> {
            int n = m.getInt();
            order.add(n);
            if (n < 3) {
                self.get().send(1, context.allocateBuffer(4).putInt(n + 1));
                order.add(-n);
            }
        });
        self.set(endpoint.startpoint().pin("crc/local")
            .editTable(t -> t.insert(0, new Descriptor("crc/local", new byte[0]))));

        self.get().send(1, context.allocateBuffer(4).putInt(1));

        assertEquals(List.of(1, -1, 2, -2, 3), order, "each delivery finishes before the next starts");
    }

    @Test
    void aBufferFromSomewhereElseIsRefusedClearly() {
        Startpoint startpoint = context.createEndpoint().startpoint();
        MessageBuffer foreign = java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {MessageBuffer.class}, (p, m, a) -> null) instanceof MessageBuffer b ? b : null;

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> startpoint.send(1, foreign));
        assertTrue(e.getMessage().contains("allocate it with Context.allocateBuffer"), e.getMessage());
    }

    @Test
    void attachmentAndContextAreReachable() {
        Object attachment = new Object();
        Endpoint endpoint = context.createEndpoint(attachment);
        assertSame(attachment, endpoint.attachment());
        assertSame(context, endpoint.context());
    }
}
