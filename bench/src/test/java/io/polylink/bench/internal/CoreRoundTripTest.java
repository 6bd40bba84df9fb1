package io.polylink.bench.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.polylink.testkit.Await;
import org.junit.jupiter.api.Test;

/** The core round-trip benchmark measures what it says: each call is one ping and its pong, whole. */
class CoreRoundTripTest {

    @Test
    void eachCallSendsAPingAndHasItsPongBackBeforeReturning() {
        CoreRoundTrip benchmark = new CoreRoundTrip();
        benchmark.size = 256;
        benchmark.open(); // fails unless the first pong came back, over the same-thread method
        try {
            for (long pongs = 2; pongs <= 1000; pongs++) {
                assertEquals(pongs, benchmark.polylink(), "pongs after as many pings");
                assertEquals(pongs - 1, benchmark.baseline(), "the floor's pongs after as many pings");
            }
        } finally {
            benchmark.close();
        }
        Await.noThreads("polylink-");
    }
}
