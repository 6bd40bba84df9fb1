package io.polylink.method.tcp.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.LinkException;
import io.polylink.method.tcp.internal.loop.IdleStrategy;
import io.polylink.spi.Configuration;
import io.polylink.spi.InvalidSettingException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TcpSettingsTest {

    private static final TcpSettings.Link DEFAULT_LINK = TcpSettings.read(Map.of()).link();

    @Test
    void everyLinkParameterIsAConfigurationKey() {
        assertTrue(Configuration.defaults(TcpConfig.class).keySet().containsAll(DEFAULT_LINK.properties().keySet()),
            "link keys " + DEFAULT_LINK.properties().keySet() + ", configuration keys "
                + Configuration.defaults(TcpConfig.class).keySet());
    }

    @Test
    void valuesComeAsTheConfigurationGivesThem() {
        TcpSettings s = TcpSettings.read(Map.of("port", "7000", "advertise", "a.example, b.example",
            "idleStrategy", "spin", "tcpNoDelay", false, "queueLimit", 65536));
        assertEquals(7000, s.port());
        assertEquals(List.of("a.example", "b.example"), s.advertise());
        assertSame(IdleStrategy.SPIN, s.idleStrategy());
        assertEquals(false, s.link().tcpNoDelay());
        assertEquals(65536, s.link().queueLimit());
        assertSame(IdleStrategy.SPIN_THEN_BLOCK, TcpSettings.read(Map.of()).idleStrategy());
    }

    @Test
    void aBadValueNamesThePidAndTheKey() {
        InvalidSettingException notANumber = assertThrows(InvalidSettingException.class,
            () -> TcpSettings.read(Map.of("sendTimeoutMs", "soon")));
        assertEquals("io.polylink.method.tcp: sendTimeoutMs='soon' is not a 32-bit integer", notANumber.getMessage());
        InvalidSettingException outOfRange = assertThrows(InvalidSettingException.class,
            () -> TcpSettings.read(Map.of("port", 70000)));
        assertEquals("port", outOfRange.key());
        InvalidSettingException timers = assertThrows(InvalidSettingException.class,
            () -> TcpSettings.read(Map.of("heartbeatIntervalMs", 1000)));
        assertEquals("io.polylink.method.tcp: heartbeatIntervalMs='1000' is not below failureTimeoutMs (1000)",
            timers.getMessage());
    }

    @Test
    void aLinkOverridesOnTopOfTheMethodsParametersAndIsCheckedAsTheyAre() {
        TcpSettings.Link tuned = TcpSettings.read(Map.of("queueLimit", 65536)).link();
        TcpSettings.Link link = tuned.with(Map.of("sendBuffer", "262144"));
        assertEquals(262144, link.sendBuffer());
        assertEquals(65536, link.queueLimit(), "the method's own value, not the default");
        assertSame(tuned, tuned.with(Map.of()));
        LinkException bad = assertThrows(LinkException.class, () -> tuned.with(Map.of("sendBuffer", "-1")));
        assertTrue(bad.getMessage().contains("io.polylink.method.tcp: sendBuffer='-1' is not in 0.."), bad.getMessage());
        LinkException unknown = assertThrows(LinkException.class, () -> tuned.with(Map.of("colour", "blue")));
        assertTrue(unknown.getMessage().startsWith("unknown tcp parameter 'colour'; known: [connectTimeoutMs"),
            unknown.getMessage());
    }

    @Test
    void anAcceptorAgreesOnTheTimersNeitherSideDeclaresALivePeerDeadBy() {
        TcpSettings.Link agreed = DEFAULT_LINK.agreedWith(20, 5000);
        assertEquals(20, agreed.heartbeatIntervalMs());
        assertEquals(5000, agreed.failureTimeoutMs());
        TcpSettings.Link own = DEFAULT_LINK.agreedWith(0, 10);
        assertEquals(1, own.heartbeatIntervalMs(), "at least 1 ms, whatever the peer asked");
        assertEquals(DEFAULT_LINK.failureTimeoutMs(), own.failureTimeoutMs());
    }
}
