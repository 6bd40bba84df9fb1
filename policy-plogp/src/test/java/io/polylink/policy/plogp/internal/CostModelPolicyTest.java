package io.polylink.policy.plogp.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Context;
import io.polylink.Descriptor;
import io.polylink.Endpoint;
import io.polylink.Explanation;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import io.polylink.Verdict;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.method.compress.internal.Lz4Transform;
import io.polylink.method.tcp.internal.TcpMethod;
import io.polylink.plogp.ModelDatabase;
import io.polylink.spi.PeerLocation;
import io.polylink.testkit.Await;
import io.polylink.testkit.LogCapture;
import io.polylink.testkit.SequenceCheck;
import io.polylink.testkit.WireTap;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The policy choosing between tcp and lz4/tcp for two real contexts on 127.0.0.1, from a model file. */
class CostModelPolicyTest {

    @TempDir
    Path dir;

    private final List<EmbeddedContext> contexts = new ArrayList<>();
    private final SequenceCheck check = new SequenceCheck();

    @AfterEach
    void close() {
        contexts.forEach(EmbeddedContext::close);
        Await.noThreads("polylink-");
    }

    private final List<WireTap> taps = new ArrayList<>();

    /** A context with lz4 and a tapped tcp method on loopback. */
    private EmbeddedContext context() {
        WireTap tap = new WireTap(new TcpMethod(Map.of("bindAddress", "127.0.0.1")));
        taps.add(tap);
        EmbeddedContext c = EmbeddedContext.open(Map.of("maxMessageSize", 1 << 20)).add(tap, 50)
            .add(new Lz4Transform(Map.of()));
        contexts.add(c);
        return c;
    }

    /** @return how many of the RSR frames the first context sent took each stack: "tcp", "lz4/tcp" */
    private Map<String, Long> framesByStack() {
        return taps.get(0).sent.stream().filter(f -> taps.get(0).transforms(f) != null)
            .collect(Collectors.groupingBy(f -> (taps.get(0).transforms(f).isEmpty() ? "tcp" : "lz4/tcp")
                + (f.length > 50_000 ? " large" : ""), Collectors.counting()));
    }

    /** Two contexts on this host, the target's table offering tcp, then lz4/tcp. */
    private Startpoint link(EmbeddedContext a, EmbeddedContext b) {
        Endpoint target = b.context().createEndpoint().register(1, (e, m) -> {
            int seq = m.getInt();
            check.accept(seq, m.remaining() == sizeOf(seq) - 4);
        });
        Startpoint s = a.context().startpoint(target.startpoint().toText());
        byte[] tcp = b.context().descriptorTable().entries().stream().filter(d -> d.stack().equals("tcp"))
            .findFirst().orElseThrow().address();
        s.editTable(t -> t.insert(2, new Descriptor("lz4/tcp", tcp)));
        return s;
    }

    private static int sizeOf(int seq) {
        return seq % 3 == 0 ? 60_000 : 16;
    }

    private void send(Context from, Startpoint s, int seq) {
        MessageBuffer m = from.allocateBuffer(sizeOf(seq)).putInt(seq);
        for (int i = 4; i < sizeOf(seq); i++) {
            m.putByte((byte) 0); // compresses well
        }
        s.send(1, m);
    }

    /** Models of this host's tcp and lz4/tcp: lz4/tcp slower for small messages, faster from 4 KiB. */
    private Path models() throws IOException {
        Path file = dir.resolve("plogp.models");
        ModelDatabase.of(List.of(CostModelTest.link(PeerLocation.SAME_HOST, "tcp", 20, 2, 0.5),
            CostModelTest.link(PeerLocation.SAME_HOST, "lz4/tcp", 20, 500, 0.01))).write(file);
        return file;
    }

    @Test
    void smallRsrsGoByTcpLargeOnesByLz4AndTheLinkKeepsItsOrder() throws IOException {
        EmbeddedContext a = context();
        EmbeddedContext b = context();
        a.add(new CostModelPolicy(models(), 0.05));
        Startpoint s = link(a, b);
        int sent = 600;
        for (int seq = 0; seq < sent; seq++) {
            send(a.context(), s, seq);
        }
        Await.until(() -> check.delivered() >= sent, Duration.ofSeconds(30), () -> check.summary(sent));
        assertTrue(check.perfect(sent), check.summary(sent));

        Map<String, Long> frames = framesByStack();
        assertEquals(null, frames.get("tcp large"), "no large RSR went uncompressed: " + frames);
        assertTrue(frames.get("lz4/tcp") - sent / 3 <= 1,
            "the small RSR sent as sizes began to mix may take the stack before; no other does: " + frames);
        String link = a.links().get(0);
        assertTrue(link.endsWith("by size: tcp below 1071 B, lz4/tcp from 1071 B"), link);
        Explanation e = s.explain().get(0);
        assertEquals("cost-model", e.policy());
        Explanation.Entry lz4 = e.entries().get(2);
        assertEquals(Verdict.CHOSEN, lz4.verdict(), e::toString);
        // tcp 22 + 0.5 m µs, lz4/tcp 520 + 0.01 m: lz4/tcp 5% faster from (546 - 22) / (0.5 - 0.0105) = 1070.5 B
        assertEquals("fastest by its P-LogP model for 0 B and more: L+g: 64 B 520.6 µs, 64 KiB 1.2 ms, 4 MiB 42.5 ms; "
            + "by size: tcp below 1071 B, lz4/tcp from 1071 B", lz4.reason());
        assertTrue(e.entries().get(1).reason().startsWith("slower by its P-LogP model for 0 B and more: L+g: 64 B 54.0 µs"),
            e::toString);
    }

    @Test
    void aLinkWhoseFirstUsableStackIsUnmeasuredGoesByTableOrderAndSaysWhy() throws IOException {
        EmbeddedContext a = context();
        EmbeddedContext b = context();
        Path file = dir.resolve("plogp.models");
        ModelDatabase.of(List.of(CostModelTest.link(PeerLocation.SAME_HOST, "lz4/tcp", 20, 500, 0.01)))
            .write(file);
        a.add(new CostModelPolicy(file, 0.05));
        Startpoint s = link(a, b);
        send(a.context(), s, 1);
        Await.until(() -> check.delivered() >= 1, Duration.ofSeconds(10), () -> check.summary(1));
        Explanation.Entry tcp = s.explain().get(0).entries().get(1);
        assertEquals(Verdict.CHOSEN, tcp.verdict());
        assertTrue(tcp.reason().endsWith("; no P-LogP model of tcp same-host in " + file), tcp.reason());
        assertEquals(Verdict.NOT_CONSIDERED, s.explain().get(0).entries().get(2).verdict());
        assertTrue(!a.links().get(0).contains("by size"), a.links()::toString);
    }

    @Test
    void aBrokenModelFileIsReportedOnceAndLinksGoByTableOrder() throws IOException {
        Path file = dir.resolve("plogp.models");
        Files.writeString(file, "model\tsame-host\ttcp\tnot-a-number\n");
        try (LogCapture log = new LogCapture("io.polylink.policy.plogp")) {
            EmbeddedContext a = context();
            EmbeddedContext b = context();
            a.add(new CostModelPolicy(file, 0.05));
            Startpoint s = link(a, b);
            for (int seq = 0; seq < 30; seq++) {
                send(a.context(), s, seq);
            }
            Await.until(() -> check.delivered() >= 30, Duration.ofSeconds(10), () -> check.summary(30));
            assertTrue(check.perfect(30), check.summary(30));
            Explanation.Entry tcp = s.explain().get(0).entries().get(1);
            assertEquals(Verdict.CHOSEN, tcp.verdict());
            assertTrue(tcp.reason().contains(file + ", line 1"), tcp.reason());
            assertEquals(1, log.lines().stream().filter(l -> l.contains(file + ", line 1")).count(), log.lines()::toString);
        }
    }
}
