package io.polylink.core.internal.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class UnitsTest {

    @Test
    void bytesInBinaryUnitsWithThreeDigits() {
        assertEquals("0 B", Units.bytes(0));
        assertEquals("1023 B", Units.bytes(1023));
        assertEquals("1.00 KiB", Units.bytes(1024));
        assertEquals("1.50 KiB", Units.bytes(1536));
        assertEquals("12.0 MiB", Units.bytes(12L << 20));
        assertEquals("512 GiB", Units.bytes(512L << 30));
        assertEquals("8.00 EiB", Units.bytes(Long.MAX_VALUE));
    }

    @Test
    void durationsInTheLargestUnitBelowTheValue() {
        assertEquals("850 ns", Units.nanos(850));
        assertEquals("85.2 us", Units.nanos(85_200));
        assertEquals("1.00 ms", Units.nanos(1_000_000));
        assertEquals("1.20 s", Units.nanos(1_200_000_000));
    }
}
