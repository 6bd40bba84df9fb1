package io.polylink.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.polylink.ContextId;
import io.polylink.core.internal.config.CoreSettings;
import io.polylink.spi.HostIdentity;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContextIdentityTest {

    @TempDir
    Path data;

    private static final CoreSettings SETTINGS = CoreSettings.of(Map.of("hostId", "rack-7"));

    @Test
    void aNamedContextHasTheSameIdAtEveryStartOfItsPlaceAndAnotherElsewhere() {
        ContextId alpha = new ContextIdentity(null, "/opt/polylink").choose(SETTINGS, "alpha", null);

        assertEquals(alpha, new ContextIdentity(null, "/opt/polylink").choose(SETTINGS, "alpha", null));
        assertNotEquals(alpha, new ContextIdentity(null, "/opt/polylink").choose(SETTINGS, "beta", null));
        assertNotEquals(alpha, new ContextIdentity(null, "/srv/polylink").choose(SETTINGS, "alpha", null));
        assertNotEquals(alpha, new ContextIdentity(null, "/opt/polylink")
            .choose(CoreSettings.of(Map.of("hostId", "rack-8")), "alpha", null));
        assertEquals(8, (alpha.high() >>> 12) & 0xF, "a version 8 UUID");
        assertEquals(2, alpha.low() >>> 62, "of the RFC 9562 variant");
    }

    @Test
    void aConfiguredIdComesFirstThenTheIdInUseThenTheRecordedOne() {
        ContextId configured = ContextId.parse("6f1d7c2a-0000-4000-8000-00000000000b");
        ContextId inUse = ContextId.random();
        ContextIdentity identity = new ContextIdentity(data.resolve("context-id"), "/opt/polylink");

        assertEquals(configured, identity.choose(CoreSettings.of(Map.of("id", configured.toString())), "alpha", inUse));
        assertEquals(inUse, identity.choose(SETTINGS, "alpha", inUse));
        identity.record(inUse);
        assertEquals(inUse, new ContextIdentity(data.resolve("context-id"), "/opt/polylink").choose(SETTINGS, null, null),
            "the id recorded before the bundle stopped");
    }

    @Test
    void anUnnamedContextWithNothingRecordedGetsAFreshId() {
        ContextIdentity identity = new ContextIdentity(data.resolve("context-id"), "/opt/polylink");
        assertNotEquals(identity.choose(SETTINGS, null, null), identity.choose(SETTINGS, null, null));
    }

    @Test
    void theMachineHalfOfTheHostIdentityCountsNotTheBootHalf() {
        byte[] machine = new byte[HostIdentity.BYTES / 2];
        machine[0] = 7;
        byte[] boot = new byte[HostIdentity.BYTES / 2];
        byte[] rebooted = boot.clone();
        rebooted[3] = 1;
        assertEquals(ContextIdentity.derived("alpha", "/opt", HostIdentity.of(machine, boot)),
            ContextIdentity.derived("alpha", "/opt", HostIdentity.of(machine, rebooted)));
    }
}
