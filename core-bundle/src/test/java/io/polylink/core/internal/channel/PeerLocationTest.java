package io.polylink.core.internal.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.polylink.Descriptor;
import io.polylink.Endpoint;
import io.polylink.Startpoint;
import io.polylink.core.internal.ChecksumTransform;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.core.internal.PipeMethod;
import io.polylink.spi.PeerLocation;
import io.polylink.testkit.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Where a transform's peer runs, as both ends' sessions are told when they open: the dialler from
 * the peer's table, the other side from the dialler's stack announcement, which comes before the
 * handshake that opens its session.
 */
class PeerLocationTest {

    private final PipeMethod.Network network = new PipeMethod.Network();
    private final List<EmbeddedContext> contexts = new ArrayList<>();

    @AfterEach
    void close() {
        contexts.forEach(EmbeddedContext::close);
        Await.noThreads("polylink-");
    }

    @Test
    void contextsGivenOneHostIdentityAreOnTheSameHost() {
        assertEquals(PeerLocation.SAME_HOST, locationBetween(Map.of("hostId", "rack-1"), Map.of("hostId", "rack-1")));
    }

    @Test
    void hostsOfOneConfiguredSiteAreOnTheSameSite() {
        assertEquals(PeerLocation.SAME_SITE, locationBetween(Map.of("hostId", "rack-1", "site", "lab"),
            Map.of("hostId", "rack-2", "site", "lab")));
    }

    @Test
    void hostsWithoutASiteAreEachASiteOfTheirOwn() {
        assertEquals(PeerLocation.OTHER_SITE, locationBetween(Map.of("hostId", "rack-1"), Map.of("hostId", "rack-2")));
        assertEquals(PeerLocation.OTHER_SITE, locationBetween(Map.of("hostId", "rack-1", "site", "lab"),
            Map.of("hostId", "rack-2", "site", "office")));
    }

    @Test
    void aContextIsItsOwnPeerOverALoopback() {
        ChecksumTransform sum = new ChecksumTransform("sum");
        EmbeddedContext only = open(Map.of(), sum);
        AtomicInteger arrived = new AtomicInteger();
        Endpoint sink = only.context().createEndpoint().register(1, (e, m) -> arrived.incrementAndGet());
        Startpoint s = sink.startpoint().editTable(t -> t.insert(0, new Descriptor("sum/local", new byte[0])));

        s.send(1, only.context().allocateBuffer(8).putLong(1));

        assertEquals(1, arrived.get());
        assertEquals(List.of(PeerLocation.SAME_CONTEXT), sum.peerLocations,
            "one session serves both directions of the loopback");
    }

    /** @return where each end's session found the other, which must agree */
    private PeerLocation locationBetween(Map<String, String> configA, Map<String, String> configB) {
        ChecksumTransform atA = new ChecksumTransform("sum");
        ChecksumTransform atB = new ChecksumTransform("sum");
        EmbeddedContext a = open(configA, atA);
        EmbeddedContext b = open(configB, atB);
        AtomicInteger arrived = new AtomicInteger();
        Endpoint sink = b.context().createEndpoint().register(1, (e, m) -> arrived.incrementAndGet());
        Startpoint s = a.context().startpoint(sink.startpoint().toText()).pin("sum/pipe")
            .editTable(t -> t.insert(0, new Descriptor("sum/pipe", t.entries().stream()
                .filter(d -> d.stack().equals("pipe")).findFirst().orElseThrow().address())));

        s.send(1, a.context().allocateBuffer(8).putLong(1));

        Await.until(() -> arrived.get() == 1, Duration.ofSeconds(10), () -> "the RSR over sum/pipe never came");
        assertEquals(1, atA.peerLocations.size(), "a opened one session: " + atA.peerLocations);
        assertEquals(atA.peerLocations, atB.peerLocations, "both ends agree where the other runs");
        return atA.peerLocations.get(0);
    }

    private EmbeddedContext open(Map<String, String> config, ChecksumTransform transform) {
        EmbeddedContext c = EmbeddedContext.open(config).add(new PipeMethod(network, "pipe"), 10).add(transform);
        contexts.add(c);
        return c;
    }
}
