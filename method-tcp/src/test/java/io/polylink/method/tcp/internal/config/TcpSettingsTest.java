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
    void aPeerMayAskForShorterTimersDownToTheFloorsNeverForLongerOnes() {
        TcpSettings settings = TcpSettings.read(Map.of());
        TcpSettings.Link asked = settings.limits().agree(DEFAULT_LINK, 100, 500);
        assertEquals(100, asked.heartbeatIntervalMs());
        assertEquals(500, asked.failureTimeoutMs());
        TcpSettings.Link floors = settings.limits().agree(DEFAULT_LINK, 1, 1);
        assertEquals(50, floors.heartbeatIntervalMs(), "heartbeatMs=1 gets the floor");
        assertEquals(200, floors.failureTimeoutMs(), "failureMs=1 gets the floor");
        TcpSettings.Link own = settings.limits().agree(DEFAULT_LINK, 1L << 31, 1L << 31);
        assertEquals(DEFAULT_LINK.heartbeatIntervalMs(), own.heartbeatIntervalMs(), "never longer than this side's");
        assertEquals(DEFAULT_LINK.failureTimeoutMs(), own.failureTimeoutMs(), "failureMs=2^31 gets this side's own");
        TcpSettings.Link below = settings.limits().agree(DEFAULT_LINK, 900, 200);
        assertEquals(199, below.heartbeatIntervalMs(), "the interval stays below the timeout");
        TcpSettings.Link tight = TcpSettings.read(Map.of("heartbeatIntervalMs", 10, "failureTimeoutMs", 40)).link();
        TcpSettings.Link ownFloors = settings.limits().agree(tight, 1, 1);
        assertEquals(10, ownFloors.heartbeatIntervalMs(), "this side's own timers are floors too, if lower");
        assertEquals(40, ownFloors.failureTimeoutMs());
    }

    @Test
    void theFloorsAreCheckedAsTheTimersAre() {
        InvalidSettingException floors = assertThrows(InvalidSettingException.class,
            () -> TcpSettings.read(Map.of("minHeartbeatIntervalMs", 300)));
        assertEquals("io.polylink.method.tcp: minHeartbeatIntervalMs='300' is not below minFailureTimeoutMs (200)",
            floors.getMessage());
    }
}
