package io.polylink.core.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.polylink.spi.InvalidSettingException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CoreUpdateTest {

    @Test
    void aRefusedValueKeepsTheValueInForceAndTheOtherKeysOfTheChangeApply() {
        CoreUpdate first = CoreUpdate.read(Map.of("quietAckMs", "250", "table", "shm,tcp"), Map.of());
        CoreUpdate next = CoreUpdate.read(Map.of("quietAckMs", "soon", "table", "lz4/tcp,tcp"), first.properties());

        assertEquals(List.of("io.polylink.core: quietAckMs='soon' is not a 64-bit integer"),
            next.refused().stream().map(InvalidSettingException::getMessage).toList());
        assertEquals(250, next.settings().quietAckMs());
        assertEquals(List.of("lz4/tcp", "tcp"), next.settings().table());
        assertEquals("'250'", next.value("quietAckMs"));
        assertEquals(Set.of("table"), next.changedFrom(first));
    }

    @Test
    void aValueRefusedWithNothingInForceTakesItsDefault() {
        CoreUpdate update = CoreUpdate.read(Map.of("maxMessageSize", 12, "site", "lab a", "name", "alpha"), Map.of());

        assertEquals(List.of("maxMessageSize", "site"),
            update.refused().stream().map(InvalidSettingException::key).sorted().toList());
        assertEquals(8 << 20, update.settings().maxMessageSize());
        assertEquals("", update.settings().site());
        assertEquals("alpha", update.config().name());
    }

    @Test
    void aValueInForceThatIsAlsoRefusedFallsBackToTheDefault() {
        CoreUpdate update = CoreUpdate.read(Map.of("handlerThreads", "0"), Map.of("handlerThreads", "2000"));

        assertEquals(1, update.refused().size());
        assertEquals(2, update.settings().handlerThreads());
    }

    @Test
    void theTableLimitsScopesNameAndProvisioningApplyInPlaceAndEverythingElseNeedsARestart() {
        CoreUpdate before = CoreUpdate.read(Map.of(), Map.of());
        CoreUpdate after = CoreUpdate.read(Map.ofEntries(Map.entry("table", "tcp"), Map.entry("abandonAfterMs", 5000),
            Map.entry("quietAckMs", 0), Map.entry("handlerThreads", 4), Map.entry("name", "beta"),
            Map.entry("require", "aead,shm"), Map.entry("require.other-host", "aead"),
            Map.entry("require.other-site", "aead"), Map.entry("systemTargets", "ANY"),
            Map.entry("repository", "repo/index.xml"), Map.entry("install.enabled", false),
            Map.entry("install.allowed", "udp"), Map.entry("maxMessageSize", 65536), Map.entry("site", "lab-b")),
            before.properties());

        Set<String> changed = after.changedFrom(before);
        assertEquals(Set.of("table", "abandonAfterMs", "quietAckMs", "handlerThreads", "name", "require",
            "require.other-host", "require.other-site", "systemTargets", "repository", "install.enabled",
            "install.allowed", "maxMessageSize", "site"), changed);
        assertEquals(Set.of("maxMessageSize", "site"), CoreUpdate.needingRestart(changed));
        assertEquals(Set.of(), after.changedFrom(CoreUpdate.read(after.properties(), after.properties())));
    }
}
