package io.polylink.bench.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

class CompilerActivityTest {

    @Test
    void readsUserAndSystemTicksPastANameWithSpacesAndParentheses() {
        String stat = "4242 (C2 CompilerThre) S 1 4242 4242 0 -1 4194368 12 0 0 0 731 29 0 0 20 0 1 0 99";
        assertEquals(760, CompilerActivity.cpuTicks(stat));
        assertEquals(5, CompilerActivity.cpuTicks("7 (a) b) R 1 7 7 0 -1 0 0 0 0 0 3 2 0 0 20 0 1 0 5"));
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void aProcessThatEndedCountsNothing() throws Exception {
        Process child = new ProcessBuilder("true").start();
        child.waitFor();
        CompilerActivity gone = CompilerActivity.of(child.pid());
        assertNotNull(gone);
        assertEquals(0, gone.ticks());
    }
}
