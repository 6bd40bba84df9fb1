package io.polylink.policy.plogp.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.spi.InvalidSettingException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The component's reading of its configuration; registering in a framework is CostModelPolicyIT's. */
class CostModelComponentTest {

    @Test
    void aMarginThatIsNotAFractionIsRefusedNamingTheKey() {
        InvalidSettingException e = assertThrows(InvalidSettingException.class,
            () -> new CostModelComponent(null, Map.of("enabled", "true", "margin", "1.5")));
        assertEquals("margin", e.key());
        assertTrue(e.getMessage().contains("io.polylink.policy.plogp") && e.getMessage().contains("a fraction from 0 to 1"),
            e.getMessage());
    }

    @Test
    void disabledRegistersNothing() {
        // with no bundle context, registering would fail: nothing is registered while disabled
        new CostModelComponent(null, Map.of("models", "/nowhere")).stop();
    }
}
