package io.polylink.bench.internal.pingpong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class PingPongOptionsTest {

    @Test
    void noArgumentsGiveTheDefaults() {
        PingPongOptions o = PingPongOptions.parse(new String[0]);
        assertEquals(List.of("raw-nio", "raw-nio-blocking", "netty-nio", "polylink:tcp", "polylink:lz4/tcp",
            "polylink:aead/tcp", "raw-mailbox", "raw-shm", "aeron-ipc", "polylink:shm"), o.impls());
        assertEquals(List.of(16, 256, 1024, 16384, 65536, 1048576), o.sizes());
        assertEquals("spin", o.idle());
        assertEquals("auto", o.await());
        assertEquals("app", o.driver());
        assertFalse(o.csv());
        assertEquals(1, o.repeat());
        assertFalse(o.interleave());
    }

    @Test
    void listsAndSuffixedSizesAreRead() {
        PingPongOptions o = PingPongOptions.parse(new String[] {"--impl", "polylink:tcp, raw-nio", "--sizes",
            "16,1k,64K,1m", "--count", "1_000", "--warmup", "0", "--idle", "block", "--wait", "park", "--driver", "handler", "--csv",
            "--jvm-opt", "-Xmx1g", "--repeat", "5", "--interleave"});
        assertEquals(List.of("polylink:tcp", "raw-nio"), o.impls());
        assertEquals(List.of(16, 1024, 65536, 1 << 20), o.sizes());
        assertEquals(1000, o.count());
        assertEquals(0, o.warmup());
        assertEquals("block", o.idle());
        assertEquals("park", o.await());
        assertTrue(o.handlerDriven());
        assertTrue(o.csv());
        assertEquals(List.of("-Xmx1g"), o.jvmOptions());
        assertEquals(5, o.repeat());
        assertTrue(o.interleave());
    }

    @Test
    void badArgumentsAreNamed() {
        assertMessage("unknown argument '--sizez'", "--sizez", "16");
        assertMessage("--impl zeromq is not one of", "--impl", "zeromq");
        // multi's cases run only as multi's peers
        assertMessage("--impl polylink:shm+tcp-idle is not one of", "--impl", "polylink:shm+tcp-idle");
        assertMessage("--impl names raw-nio twice", "--impl", "raw-nio,raw-nio");
        assertMessage("--sizes item 0 is outside", "--sizes", "0");
        assertMessage("--sizes item 5m is outside", "--sizes", "5m");
        assertMessage("--sizes item 'x' is not a size", "--sizes", "x");
        assertMessage("--count needs a value", "--count");
        assertMessage("--count 0 is below 1", "--count", "0");
        assertMessage("--idle busy is not one of", "--idle", "busy");
        assertMessage("--wait yield is not one of", "--wait", "yield");
        assertMessage("--driver server is not one of", "--driver", "server");
        assertMessage("--repeat 0 is below 1", "--repeat", "0");
        assertMessage("--repeat 101 is above 100", "--repeat", "101");
    }

    @Test
    void interleavingTakesOnlyImplementationsThatLetGoOfTheCoresWhenIdle() {
        PingPongOptions tcp = PingPongOptions.parse(new String[] {"--interleave", "--impl",
            "raw-nio,raw-nio-blocking,netty-nio,polylink:tcp,polylink:lz4/tcp,polylink:aead/tcp", "--idle", "spin-then-block"});
        assertEquals(tcp, tcp.checkInterleavable());
        PingPongOptions shm = PingPongOptions.parse(new String[] {"--interleave", "--impl",
            "raw-mailbox,raw-shm,aeron-ipc,polylink:shm", "--idle", "spin"});
        assertEquals(shm, shm.checkInterleavable(), "the shm family parks between polls once quiet");
        PingPongOptions spin = PingPongOptions.parse(new String[] {"--interleave", "--impl", "raw-nio,polylink:tcp"});
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, spin::checkInterleavable);
        assertTrue(e.getMessage().startsWith("--interleave needs --idle spin-then-block or block for polylink:tcp"),
            e.getMessage());
        // without --interleave, anything goes
        PingPongOptions sequential = PingPongOptions.parse(new String[] {"--impl", "raw-shm,polylink:tcp"});
        assertEquals(sequential, sequential.checkInterleavable());
    }

    private static void assertMessage(String start, String... args) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PingPongOptions.parse(args));
        assertTrue(e.getMessage().startsWith(start), e.getMessage());
    }

    @Test
    void autoWaitSpinsOnlyWithACoreForEachSpinningThread() {
        PingPongOptions auto = PingPongOptions.parse(new String[0]);
        assertEquals("park", auto.waitOn(2));
        assertEquals("park", auto.waitOn(3));
        assertEquals("spin", auto.waitOn(4));
        assertEquals("spin", PingPongOptions.parse(new String[] {"--wait", "spin"}).waitOn(2));
    }

    @Test
    void largeSizesGetFewerRoundTripsButNeverBelowTheFloor() {
        PingPongOptions o = PingPongOptions.parse(new String[] {"--count", "20000", "--warmup", "10000"});
        assertEquals(20000, o.countFor(1024));
        assertEquals(4096, o.countFor(16 << 10));
        assertEquals(1024, o.countFor(64 << 10));
        assertEquals(500, o.countFor(1 << 20));
        assertEquals(10000, o.warmupFor(1024));
        assertEquals(200, o.warmupFor(1 << 20));
        // Streams: about 1 GiB, within [count, 20 x count] messages.
        assertEquals(400_000, o.streamFor(16));
        assertEquals(16384, o.streamFor(64 << 10));
        assertEquals(1024, o.streamFor(1 << 20));
        assertEquals(5, PingPongOptions.parse(new String[] {"--count", "5"}).countFor(1 << 20));
    }
}
