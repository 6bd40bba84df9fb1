package io.polylink.core.internal.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Endpoint;
import io.polylink.Explanation;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import io.polylink.Verdict;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.core.internal.PipeMethod;
import io.polylink.spi.PeerLocation;
import io.polylink.spi.SelectionPolicy;
import io.polylink.spi.SelectionRequest;
import io.polylink.spi.SelectionRequest.Sizes;
import io.polylink.testkit.Await;
import io.polylink.testkit.LogCapture;
import io.polylink.testkit.SequenceCheck;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A policy that chooses by size: small RSRs by a fast pipe, large ones by a slow pipe whose frames
 * wait before they arrive, so that a large RSR sent before a small one would arrive after it if the
 * flow did not keep its order across the two.
 */
class SizeClassesTest {

    private static final int LARGE = 1024;

    private final PipeMethod.Network network = new PipeMethod.Network();
    private final EmbeddedContext a = EmbeddedContext.open();
    private final EmbeddedContext b = EmbeddedContext.open();
    private final PipeMethod fastA = new PipeMethod(network, "fast");
    private final PipeMethod slowA = new PipeMethod(network, "slow");
    private final PipeMethod fastB = new PipeMethod(network, "fast");
    private final PipeMethod slowB = new PipeMethod(network, "slow");
    private final SequenceCheck check = new SequenceCheck();
    private final List<String> asked = new CopyOnWriteArrayList<>();
    private final Endpoint target;

    SizeClassesTest() {
        a.add(fastA, 10).add(slowA, 20);
        b.add(fastB, 10).add(slowB, 20);
        slowB.latencyNanos = TimeUnit.MICROSECONDS.toNanos(200);
        target = b.context().createEndpoint().register(1, (e, m) -> {
            int seq = m.getInt();
            check.accept(seq, m.remaining() == sizeOf(seq) - 4 && intact(m, seq));
        });
    }

    @AfterEach
    void close() {
        a.close();
        b.close();
        Await.noThreads("polylink-");
    }

    /** Small by the first usable entry, large by the last: {@code fast} and {@code slow} here. */
    private final class BySize implements SelectionPolicy {
        private final int[] classes;

        BySize(int... classes) {
            this.classes = classes;
        }

        @Override
        public String name() {
            return "by-size";
        }

        @Override
        public int[] sizeClasses(SelectionRequest request) {
            return classes;
        }

        @Override
        public Explanation select(SelectionRequest request) {
            asked.add(request.sizes() + " " + request.location());
            boolean large = request.sizes().smallest() >= LARGE;
            int n = request.table().size();
            int pick = -1;
            for (int k = 0; k < n && pick < 0; k++) {
                int i = large ? n - 1 - k : k;
                pick = request.assess(i).usable() ? i : -1;
            }
            List<Explanation.Entry> entries = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                entries.add(new Explanation.Entry(i, request.table().get(i),
                    i == pick ? Verdict.CHOSEN : Verdict.NOT_CONSIDERED, i == pick ? "by size" : "-"));
            }
            return new Explanation(request.target(), request.endpoint(), name(), entries);
        }
    }

    /** Sizes in runs of one to four, a third of them large. */
    private static int sizeOf(int seq) {
        Random r = new Random(seq / 4 * 7919L);
        return r.nextInt(3) == 0 ? LARGE + 1000 : 4 + r.nextInt(60);
    }

    private static boolean intact(MessageBuffer m, int seq) {
        for (int i = 4; m.remaining() > 0; i++) {
            if (m.getByte() != (byte) (seq + i)) {
                return false;
            }
        }
        return true;
    }

    private void send(Startpoint s, int seq) {
        int size = sizeOf(seq);
        MessageBuffer m = a.context().allocateBuffer(size).putInt(seq);
        for (int i = 4; i < size; i++) {
            m.putByte((byte) (seq + i));
        }
        s.send(1, m);
    }

    private void awaitDelivered(int sent) {
        Await.until(() -> check.delivered() >= sent, Duration.ofSeconds(30),
            () -> check.summary(sent) + "; links: " + a.links());
        assertTrue(check.perfect(sent), check.summary(sent));
    }

    @Test
    void eachSizeGoesByItsClassAndTheLinkKeepsItsOrderAcrossBoth() {
        a.add(new BySize(LARGE));
        Startpoint s = a.context().startpoint(target.startpoint().toText());
        int sent = 3000;
        for (int seq = 0; seq < sent; seq++) {
            send(s, seq);
        }
        awaitDelivered(sent);

        assertEquals("fast", s.explain().get(0).chosen().orElseThrow().descriptor().stack(),
            "the link's choice, for every size: the startpoint's explanation");
        assertTrue(a.links().get(0).endsWith("by size: fast below 1024 B, slow from 1024 B"), a.links()::toString);
        long large = java.util.stream.IntStream.range(0, sent).filter(seq -> sizeOf(seq) >= LARGE).count();
        long bySlow = slowA.statistics().messagesSent();
        long byFast = fastA.statistics().messagesSent();
        // beside the RSRs: each connection's announcements and tables, and a first small RSR may
        // take the stack before as sizes begin to mix
        assertTrue(bySlow >= large && bySlow <= large + 5 && byFast >= sent - large && byFast <= sent - large + 5,
            large + " large RSRs of " + sent + "; fast sent " + byFast + " frames, slow " + bySlow);
        assertEquals(1, fastA.connectingThreads.size(), "no connection closed for a gap and made again");
        assertEquals(1, slowA.connectingThreads.size(), "no connection closed for a gap and made again");
        assertEquals(List.of(Sizes.ALL + " " + PeerLocation.SAME_HOST, "0 to 1023 B " + PeerLocation.SAME_HOST,
            "1024 B and more " + PeerLocation.SAME_HOST), asked.subList(0, 3));
    }

    @Test
    void aClassesMethodRemovedAndAddedWhileRsrsFlowLosesNothing() throws Exception {
        a.add(new BySize(LARGE));
        Startpoint s = a.context().startpoint(target.startpoint().toText());
        int sent = 0;
        for (; sent < 1000; sent++) {
            send(s, sent);
        }
        a.remove(slowA);
        for (; sent < 2000; sent++) {
            send(s, sent);
        }
        assertTrue(a.links().get(0).matches(".* fast .*") && !a.links().get(0).contains("by size"),
            "without slow every size goes by fast: " + a.links());
        PipeMethod slowAgain = new PipeMethod(network, "slow");
        a.add(slowAgain, 20);
        for (; sent < 3000; sent++) {
            send(s, sent);
        }
        awaitDelivered(sent);
        assertTrue(slowAgain.statistics().messagesSent() > 0, "the returned slow carries large RSRs again");
    }

    @Test
    void methodsRemovedAndAddedUnderAStreamOfMixedSizesLoseNothingAndKeepTheOrder() throws Exception {
        a.add(new BySize(LARGE));
        Startpoint s = a.context().startpoint(target.startpoint().toText());
        int total = 6000;
        AtomicInteger sent = new AtomicInteger();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread sender = new Thread(() -> {
            try {
                for (int seq = 0; seq < total; seq++) {
                    send(s, seq);
                    sent.set(seq + 1);
                }
            } catch (Throwable t) {
                failed.set(t);
            }
        }, "test-sender");
        sender.start();
        try {
            awaitSent(sent, failed, 1000);
            a.remove(slowA); // large RSRs in flight on slow move to fast
            awaitSent(sent, failed, 2500);
            PipeMethod slowAgain = new PipeMethod(network, "slow");
            a.add(slowAgain, 20); // and come back
            awaitSent(sent, failed, 4000);
            a.remove(fastA); // now the small ones move, to slow
            sender.join(TimeUnit.SECONDS.toMillis(60));
            assertEquals(null, failed.get(), "the sender failed");
            assertEquals(total, sent.get(), "the sender did not finish in 60 s");
            awaitDelivered(total);
            assertTrue(slowAgain.statistics().messagesSent() > 0, "the returned slow carried RSRs");
        } finally {
            sender.interrupt();
            sender.join(TimeUnit.SECONDS.toMillis(10));
        }
    }

    private static void awaitSent(AtomicInteger sent, AtomicReference<Throwable> failed, int count) {
        Await.until(() -> sent.get() >= count || failed.get() != null, Duration.ofSeconds(30),
            () -> "the sender sent " + sent.get() + " of " + count);
        assertEquals(null, failed.get(), "the sender failed");
    }

    @Test
    void sizeClassesThatAreNotAscendingLeaveTheLinkOnItsChoiceAndAreReported() {
        try (LogCapture log = new LogCapture("io.polylink.core")) {
            a.add(new BySize(2048, LARGE));
            Startpoint s = a.context().startpoint(target.startpoint().toText());
            for (int seq = 0; seq < 100; seq++) {
                send(s, seq);
            }
            awaitDelivered(100);
            assertEquals(0, slowA.statistics().messagesSent(), "every size went by fast");
            assertTrue(log.lines().stream().anyMatch(l -> l.contains("selection policy by-size gave size classes "
                    + "[2048, 1024]: they must be ascending sizes greater than 0") && l.contains("link's choice")),
                log.lines()::toString);
        }
    }
}
