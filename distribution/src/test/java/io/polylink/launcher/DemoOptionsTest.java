package io.polylink.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class DemoOptionsTest {

    @Test
    void defaultsAndEveryOption() {
        assertEquals(new DemoOptions(1000, List.of(16, 1024, 65536), 20000), DemoOptions.parse(new String[0]));
        assertEquals(new DemoOptions(5, List.of(8, 9), 100),
            DemoOptions.parse(new String[] {"--count", "5", "--sizes", "8, 9", "--stream", "100"}));
        assertNull(DemoOptions.parse(new String[] {"--count", "5", "--help"}));
    }

    @Test
    void badOptionsAreNamed() {
        assertEquals("unknown option '--fast'",
            assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse(new String[] {"--fast"})).getMessage());
        assertEquals("--count needs a value",
            assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse(new String[] {"--count"})).getMessage());
        assertEquals("--sizes takes a whole number from 1 to 1048576, not '0'",
            assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse(new String[] {"--sizes", "16,0"}))
                .getMessage());
    }
}
