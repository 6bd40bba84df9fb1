package io.polylink.core.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.ContextId;
import io.polylink.spi.HostIdentity;
import io.polylink.spi.InvalidSettingException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CoreSettingsTest {

    @Test
    void anEmptyConfigurationGivesTheDefaultsCoreConfigDeclares() {
        CoreSettings settings = CoreSettings.of(Map.of());
        assertEquals(8 << 20, settings.maxMessageSize());
        assertEquals(2, settings.handlerThreads());
        assertEquals(List.of(), settings.table());
        assertNull(settings.id());
        assertEquals(30_000, settings.abandonAfterMs());
        assertEquals(1000, settings.quietAckMs());
        assertEquals("", settings.site());
        assertEquals(LocalHost.identity(), settings.host());
    }

    @Test
    void valuesFromACfgFileArriveAsTextAndTheTableAsOneCommaSeparatedString() {
        CoreSettings settings = CoreSettings.of(Map.of("maxMessageSize", "65536", "table", "shm, lz4/tcp,tcp",
            "id", "6f1d7c2a-0000-4000-8000-00000000000b", "hostId", "rack-7", "site", "lab-a"));
        assertEquals(65536, settings.maxMessageSize());
        assertEquals(List.of("shm", "lz4/tcp", "tcp"), settings.table());
        assertEquals(ContextId.parse("6f1d7c2a-0000-4000-8000-00000000000b"), settings.id());
        assertEquals(HostIdentity.named("rack-7"), settings.host());
        assertEquals("lab-a", settings.site());
    }

    @Test
    void aValueThatCannotBeUsedNamesThePidTheKeyAndWhatIsAllowed() {
        assertEquals("io.polylink.core: maxMessageSize='512' is not in 1024..1073741824",
            refusal(Map.of("maxMessageSize", 512)));
        assertEquals("io.polylink.core: handlerThreads='many' is not a 32-bit integer",
            refusal(Map.of("handlerThreads", "many")));
        assertEquals("io.polylink.core: quietAckMs='-1' is not in 0..3600000", refusal(Map.of("quietAckMs", -1)));
        assertEquals("io.polylink.core: abandonAfterMs='0' is not in 1..86400000", refusal(Map.of("abandonAfterMs", 0)));
        assertEquals("io.polylink.core: site='lab a' is not at most 64 letters, digits, '.', '_' and '-'",
            refusal(Map.of("site", "lab a")));
        assertEquals("io.polylink.core: id='node-1' is not a context id (a UUID such as "
            + "6f1d7c2a-0000-4000-8000-00000000000b), or empty",
            refusal(Map.of("id", "node-1")));
        assertEquals("io.polylink.core: table='shm,lz4//tcp' is not a comma-separated list of method stacks such as "
            + "'shm,lz4/tcp,tcp' (" + assertThrows(IllegalArgumentException.class,
                () -> new io.polylink.Descriptor("lz4//tcp", new byte[0])).getMessage() + ")",
            refusal(Map.of("table", "shm,lz4//tcp")));
        assertTrue(refusal(Map.of("repository", "http://exa mple.org/index.xml")).startsWith(
            "io.polylink.core: repository='http://exa mple.org/index.xml' is not the path or URL of an OSGi Repository"));
    }

    private static String refusal(Map<String, ?> properties) {
        return assertThrows(InvalidSettingException.class, () -> CoreSettings.of(properties)).getMessage();
    }
}
