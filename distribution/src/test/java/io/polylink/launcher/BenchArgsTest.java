package io.polylink.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchArgsTest {

    @Test
    void outIsTheLaunchersAnywhereAndTheRestGoesToTheJar() {
        BenchArgs before = BenchArgs.parse(new String[] {"--out", "r", "pingpong", "--sizes", "16", "--csv"});
        assertEquals(new BenchArgs("pingpong", Path.of("r"), List.of("pingpong", "--sizes", "16", "--csv"), false), before);
        BenchArgs after = BenchArgs.parse(new String[] {"swap", "--x", "--out", "r"});
        assertEquals(List.of("swap", "--x"), after.passed());
        assertEquals(Path.of("r"), after.out());
        assertTrue(BenchArgs.parse(new String[] {"pingpong", "--help"}).commandHelp());
        assertFalse(BenchArgs.parse(new String[] {"pingpong"}).out().toString().isEmpty(), "a dated default folder");
        assertNull(BenchArgs.parse(new String[] {"--help"}));
    }

    @Test
    void badArgumentsAreNamed() {
        assertEquals("which benchmark? name a command",
            assertThrows(IllegalArgumentException.class, () -> BenchArgs.parse(new String[0])).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> BenchArgs.parse(new String[] {"--sizes"}))
            .getMessage().startsWith("unknown option '--sizes'"));
        assertEquals("--out needs a value",
            assertThrows(IllegalArgumentException.class, () -> BenchArgs.parse(new String[] {"pingpong", "--out"}))
                .getMessage());
    }
}
