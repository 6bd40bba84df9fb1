package io.polylink.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

class NodeArgsTest {

    private static final Set<String> START = Set.of("--name", "--conf", "--keep-state", "--timeout");

    @Test
    void defaultsAndEveryOption() {
        assertEquals(new NodeArgs("polylink", null, false, false, Duration.ofSeconds(60)),
            NodeArgs.parse(new String[0], START, "polylink", Duration.ofSeconds(60)));
        assertEquals(new NodeArgs("a.b_c-1", Path.of("/tmp/c"), true, false, Duration.ofSeconds(5)),
            NodeArgs.parse(new String[] {"--name", "a.b_c-1", "--conf", "/tmp/c", "--keep-state", "--timeout", "5"},
                START, "polylink", Duration.ofSeconds(60)));
        assertEquals(new NodeArgs("n", null, false, true, null),
            NodeArgs.parse(new String[] {"--daemon", "--name", "n"}, Set.of("--name", "--daemon"), null, null));
        assertNull(NodeArgs.parse(new String[] {"--name", "n", "--help"}, START, "polylink", null));
    }

    @Test
    void anOptionTheCommandDoesNotTakeIsUnknownAndNamed() {
        assertEquals("unknown option '--daemon'", assertThrows(IllegalArgumentException.class,
            () -> NodeArgs.parse(new String[] {"--daemon"}, START, "polylink", null)).getMessage());
        assertEquals("unknown option '--bogus'", assertThrows(IllegalArgumentException.class,
            () -> NodeArgs.parse(new String[] {"--bogus"}, START, "polylink", null)).getMessage());
    }

    @Test
    void badValuesAreNamed() {
        assertEquals("--name needs a value", assertThrows(IllegalArgumentException.class,
            () -> NodeArgs.parse(new String[] {"--name"}, START, "polylink", null)).getMessage());
        assertEquals("invalid node name '../x': use up to 128 letters, digits, '.', '_' and '-', not starting with '.'",
            assertThrows(IllegalArgumentException.class,
                () -> NodeArgs.parse(new String[] {"--name", "../x"}, START, "polylink", null)).getMessage());
        assertEquals("--timeout takes a whole number from 1 to 3600, not '0'", assertThrows(IllegalArgumentException.class,
            () -> NodeArgs.parse(new String[] {"--timeout", "0"}, START, "polylink", null)).getMessage());
    }
}
