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
import io.polylink.spi.HostIdentity;
import io.polylink.spi.InvalidSettingException;
import io.polylink.testkit.Await;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Two contexts of one JVM joined by the example udp method on 127.0.0.1. */
class UdpMethodTest {

    private final UdpMethod methodA = new UdpMethod(Map.of());
    private final EmbeddedContext a = EmbeddedContext.open().add(methodA, 10);
    private final EmbeddedContext b = EmbeddedContext.open().add(new UdpMethod(Map.of()), 10);

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
    void onlyLoopbackAddressesOfThisHostApply() throws Exception {
        HostIdentity here = UdpAddress.decode(methodA.localAddress()).host();
        byte[] remote = new UdpAddress(here, new InetSocketAddress(InetAddress.getByName("10.0.0.2"), 8000)).encode();
        assertFalse(methodA.applicable(ContextId.random(), remote).applicable());
        assertEquals("the udp example reaches loopback only, not 10.0.0.2:8000/udp",
            methodA.applicable(ContextId.random(), remote).reason());

        byte[] elsewhere = new UdpAddress(HostIdentity.named("elsewhere"),
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 8000)).encode();
        assertTrue(methodA.applicable(ContextId.random(), elsewhere).reason()
            .matches("other host \\(machine [0-9a-f]{8}…, here [0-9a-f]{8}…\\)"),
            methodA.applicable(ContextId.random(), elsewhere).reason());

        assertEquals("a udp address has 38 bytes (host, IPv4 and port), not 3",
            methodA.applicable(ContextId.random(), new byte[3]).reason());
    }

    @Test
    void aSettingThatCannotBeUsedIsRefusedNamingThePidAndTheKey() {
        InvalidSettingException e = assertThrows(InvalidSettingException.class,
            () -> new UdpMethod(Map.of("receiveBufferBytes", "lots")));
        assertEquals("io.polylink.example.udp: receiveBufferBytes='lots' is not a 32-bit integer", e.getMessage());
    }
}
