package io.polylink.mpi.internal.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.polylink.Explanation;
import io.polylink.Startpoint;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.method.tcp.internal.TcpMethod;
import io.polylink.spi.SelectionPolicy;
import io.polylink.spi.SelectionRequest;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which stack a rendezvous's chunks are sized for, asked of real links between two contexts over tcp. */
class TransportStackTest {

    @Test
    void aLinkNamesItsStackAndOneThatCannotSayGetsTheDefaultChunkInsteadOfFailingTheSend() {
        try (EmbeddedContext a = EmbeddedContext.open(); EmbeddedContext b = EmbeddedContext.open()) {
            a.add(new TcpMethod(Map.of("bindAddress", "127.0.0.1")), 50);
            b.add(new TcpMethod(Map.of("bindAddress", "127.0.0.1")), 50);
            Startpoint[] links = {a.context().startpoint(b.systemStartpoint().toText())};
            assertEquals("tcp", Transport.stack(links, 0));
            assertEquals(Limits.DEFAULTS.streamChunk(), Limits.DEFAULTS.chunkOver(Transport.stack(links, 0)));

            a.add(new SelectionPolicy() {
                @Override
                public String name() {
                    return "failing";
                }

                @Override
                public Explanation select(SelectionRequest request) {
                    throw new IllegalStateException("this policy fails on purpose");
                }
            });
            assertNull(Transport.stack(links, 0), "a link that cannot say which stack it takes");
            assertEquals(Limits.DEFAULTS.chunk(), Limits.DEFAULTS.chunkOver(null));
        }
    }
}
