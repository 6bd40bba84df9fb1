package io.polylink.example.udp.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.ContextId;
import io.polylink.Endpoint;
import io.polylink.LinkException;
import io.polylink.Startpoint;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.testkit.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Two contexts of one JVM joined by the example udp method on 127.0.0.1. */
class UdpMethodTest {

    private final EmbeddedContext a = EmbeddedContext.open().add(new UdpMethod(), 10);
    private final EmbeddedContext b = EmbeddedContext.open().add(new UdpMethod(), 10);

    @AfterEach
    void close() {
        a.close();
        b.close();
        Await.noThreads("polylink-");
    }

    @Test
    void rsrsGoBothWaysOverLoopbackDatagrams() {
        List<String> replies = new CopyOnWriteArrayList<>();
        Endpoint echo = b.context().createEndpoint().register(1, (e, m) ->
            m.getStartpoint().send(2, b.context().allocateBuffer(64).putString("echo " + m.getInt())));
        Endpoint back = a.context().createEndpoint().register(2, (e, m) -> replies.add(m.getString()));
        Startpoint toEcho = a.context().startpoint(echo.startpoint().toText());

        for (int i = 0; i < 100; i++) {
            toEcho.send(1, a.context().allocateBuffer(64).putStartpoint(back.startpoint()).putInt(i));
        }

        Await.until(() -> replies.size() == 100, Duration.ofSeconds(10), () -> replies.size() + " of 100 replies");
        assertEquals("echo 0", replies.get(0));
        assertEquals("udp", toEcho.explain().get(0).chosen().orElseThrow().descriptor().stack());
        assertEquals("loopback datagrams", toEcho.explain().get(0).chosen().orElseThrow().reason());
    }

    @Test
    void aFrameLargerThanOneDatagramFailsItsSendNamingTheLimitAndTheLinkGoesOn() {
        List<Integer> seen = new CopyOnWriteArrayList<>();
        Endpoint sink = b.context().createEndpoint().register(1, (e, m) -> seen.add(m.getBytes().length));
        Startpoint s = a.context().startpoint(sink.startpoint().toText());

        LinkException e = assertThrows(LinkException.class,
            () -> s.send(1, a.context().allocateBuffer(70_000).putBytes(new byte[70_000])));
        assertTrue(e.getMessage().contains("exceeds the udp method's limit of " + UdpConnection.MAX_FRAME), e.getMessage());

        s.send(1, a.context().allocateBuffer(60_000).putBytes(new byte[60_000]));
        Await.until(() -> seen.contains(60_000), Duration.ofSeconds(5), () -> "the 60000-byte RSR after it, seen: " + seen);
    }

    @Test
    void onlyLoopbackAddressesApply() {
        UdpMethod m = new UdpMethod();
        byte[] remote = {10, 0, 0, 2, 0x1f, 0x40};
        assertFalse(m.applicable(ContextId.random(), remote).applicable());
        assertEquals("the udp example reaches loopback only, not 10.0.0.2:8000/udp",
            m.applicable(ContextId.random(), remote).reason());
        assertEquals("a udp address has 6 bytes (IPv4 and port), not 3",
            m.applicable(ContextId.random(), new byte[3]).reason());
    }
}
