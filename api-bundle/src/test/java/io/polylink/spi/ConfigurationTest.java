package io.polylink.spi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigurationTest {

    enum Idle { SPIN, SPIN_THEN_PARK, PARK }

    @interface Sample {
        int port() default 7000;
        long timeoutMs() default 1000;
        double ratio() default 0.5;
        boolean noDelay() default true;
        String host() default "localhost";
        String[] table() default {"shm", "tcp"};
        Idle idle() default Idle.SPIN_THEN_PARK;
        boolean install_enabled() default false;
        String my__key() default "";
        String dash$_$key() default "";
    }

    @Test
    void anEmptyConfigurationGivesTheDeclaredDefaults() {
        Sample s = Configuration.read("test", Sample.class, Map.of());
        assertEquals(7000, s.port());
        assertEquals(1000, s.timeoutMs());
        assertEquals(0.5, s.ratio());
        assertTrue(s.noDelay());
        assertEquals("localhost", s.host());
        assertArrayEquals(new String[] {"shm", "tcp"}, s.table());
        assertEquals(Idle.SPIN_THEN_PARK, s.idle());
    }

    @Test
    void textFromACfgFileIsConvertedAndAListIsSplitAtCommas() {
        Sample s = Configuration.read("test", Sample.class, Map.of("port", " 7100 ", "timeoutMs", "5",
            "ratio", "2.5", "noDelay", "FALSE", "table", "shm, lz4/tcp ,tcp,", "idle", "spin-then-park"));
        assertEquals(7100, s.port());
        assertEquals(5, s.timeoutMs());
        assertEquals(2.5, s.ratio());
        assertEquals(false, s.noDelay());
        assertArrayEquals(new String[] {"shm", "lz4/tcp", "tcp"}, s.table());
        assertEquals(Idle.SPIN_THEN_PARK, s.idle());
    }

    @Test
    void typedValuesAndCollectionsAreTakenAsTheyAre() {
        Sample s = Configuration.read("test", Sample.class, Map.of("port", 9L, "table", List.of("a", "b"),
            "noDelay", Boolean.FALSE, "host", new String[] {"h"}, "idle", "PARK"));
        assertEquals(9, s.port());
        assertArrayEquals(new String[] {"a", "b"}, s.table());
        assertEquals(false, s.noDelay());
        assertEquals("h", s.host());
        assertEquals(Idle.PARK, s.idle());
    }

    @Test
    void keysFollowTheComponentPropertyTypeNaming() {
        Sample s = Configuration.read("test", Sample.class, Map.of("install.enabled", "true", "my_key", "x",
            "dash-key", "y"));
        assertTrue(s.install_enabled());
        assertEquals("x", s.my__key());
        assertEquals("y", s.dash$_$key());
        assertTrue(Configuration.defaults(Sample.class).containsKey("install.enabled"));
    }

    @Test
    void aBadValueFailsWhenReadNamingComponentKeyValueAndWhatIsAllowed() {
        InvalidSettingException e = assertThrows(InvalidSettingException.class,
            () -> Configuration.read("io.polylink.method.tcp", Sample.class, Map.of("port", "70x")));
        assertEquals("io.polylink.method.tcp: port='70x' is not a 32-bit integer", e.getMessage());
        assertEquals("port", e.key());
        assertEquals("io.polylink.method.tcp", e.component());
        assertEquals("test: noDelay='yes' is not true or false", assertThrows(InvalidSettingException.class,
            () -> Configuration.read("test", Sample.class, Map.of("noDelay", "yes"))).getMessage());
        assertEquals("test: idle='fast' is not one of spin, spin-then-park, park",
            assertThrows(InvalidSettingException.class,
                () -> Configuration.read("test", Sample.class, Map.of("idle", "fast"))).getMessage());
        assertEquals("test: port='5000000000' is not a 32-bit integer", assertThrows(InvalidSettingException.class,
            () -> Configuration.read("test", Sample.class, Map.of("port", 5_000_000_000L))).getMessage());
        assertEquals("test: host='a,b' is not a single value", assertThrows(InvalidSettingException.class,
            () -> Configuration.read("test", Sample.class, Map.of("host", new String[] {"a", "b"}))).getMessage());
    }

    @Test
    void rangesAreCheckedWithTheSameKindOfMessage() {
        assertEquals(5, Configuration.requireRange("c", "k", 5, 1, 10));
        assertEquals("c: k='11' is not in 1..10", assertThrows(InvalidSettingException.class,
            () -> Configuration.requireRange("c", "k", 11, 1, 10)).getMessage());
    }

    @Test
    void unknownKeysAreIgnoredAndArraysAreCopiedOnEachRead() {
        Sample s = Configuration.read("test", Sample.class, Map.of("service.pid", "x", "felix.fileinstall.filename", 1));
        s.table()[0] = "changed";
        assertEquals("shm", s.table()[0]);
    }
}
