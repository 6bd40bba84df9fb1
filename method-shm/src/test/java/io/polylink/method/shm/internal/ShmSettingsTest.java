package io.polylink.method.shm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.polylink.method.shm.internal.poll.IdleStrategy;
import io.polylink.spi.InvalidSettingException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ShmSettingsTest {

    @Test
    void keysNotGivenTakeTheirDefaultsAndTextIsConverted() {
        ShmSettings s = ShmSettings.read(Map.of("directory", "/tmp/x/../shm", "ringBytes", "65536",
            "idleStrategy", "Spin", "trustedDirectories", "/dev/shm/shared/, /tmp/a/./b"));
        assertEquals(Path.of("/tmp/shm"), s.directory());
        assertEquals(List.of(Path.of("/dev/shm/shared"), Path.of("/tmp/a/b")), s.trustedDirectories());
        assertEquals(List.of(), ShmSettings.read(Map.of()).trustedDirectories());
        assertEquals(65536, s.ringBytes());
        assertEquals(IdleStrategy.SPIN, s.idleStrategy());
        assertEquals(64, s.producerSlots());
        assertEquals(IdleStrategy.SPIN_THEN_PARK, ShmSettings.read(Map.of()).idleStrategy());
        assertEquals(ShmSettings.defaultDirectory(), ShmSettings.read(Map.of()).directory());
    }

    @Test
    void aValueThatCannotBeUsedIsRefusedNamingThePidTheKeyAndWhatIsAllowed() {
        assertRefused("ringBytes", "io.polylink.method.shm: ringBytes='100000' is not a power of two in "
            + "65536..1073741824", Map.of("ringBytes", 100_000));
        assertRefused("producerSlots", "io.polylink.method.shm: producerSlots='0' is not in 1..1024",
            Map.of("producerSlots", "0"));
        assertRefused("idleStrategy", "io.polylink.method.shm: idleStrategy='busy' is not one of spin, "
            + "spin-then-park, park", Map.of("idleStrategy", "busy"));
        assertRefused("heartbeatIntervalMs", "io.polylink.method.shm: heartbeatIntervalMs='1000' is not below "
            + "failureTimeoutMs (1000)", Map.of("heartbeatIntervalMs", "1000"));
        assertRefused("sendTimeoutMs", "io.polylink.method.shm: sendTimeoutMs='soon' is not a 32-bit integer",
            Map.of("sendTimeoutMs", "soon"));
    }

    private static void assertRefused(String key, String message, Map<String, ?> properties) {
        InvalidSettingException e = assertThrows(InvalidSettingException.class, () -> ShmSettings.read(properties));
        assertEquals(ShmSettings.PID, e.component());
        assertEquals(key, e.key());
        assertEquals(message, e.getMessage());
    }
}
