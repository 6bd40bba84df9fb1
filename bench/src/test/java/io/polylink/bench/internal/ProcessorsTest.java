package io.polylink.bench.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ProcessorsTest {

    @Test
    void theModelIsTheFirstProcessorsAsX86KernelsNameIt() {
        List<String> twoIntel = List.of("processor\t: 0", "vendor_id\t: GenuineIntel", "cpu family\t: 6",
            "model\t\t: 143", "model name\t: Intel(R) Xeon(R) Processor", "stepping\t: 8", "", "processor\t: 1",
            "model name\t: Intel(R) Xeon(R) Processor");
        assertEquals(Optional.of("Intel(R) Xeon(R) Processor"), Processors.model(twoIntel));
        assertEquals(Optional.of("AMD EPYC 7B13"), Processors.model(List.of("model\t\t: 1",
            "model name\t: AMD EPYC 7B13")));
    }

    @Test
    void noModelWhereTheSystemNamesNone() {
        List<String> arm = List.of("processor\t: 0", "BogoMIPS\t: 50.00", "CPU implementer\t: 0x41", "CPU part\t: 0xd0c");
        assertEquals(Optional.empty(), Processors.model(arm));
        assertEquals(Optional.empty(), Processors.model(List.of("model name\t:   ")));
        assertEquals(Optional.empty(), Processors.model(List.of()));
    }

    @Test
    void theHeaderStartsWithTheCount() {
        String described = Processors.describe();
        assertTrue(described.startsWith(Runtime.getRuntime().availableProcessors() + " cpus"), described);
    }
}
