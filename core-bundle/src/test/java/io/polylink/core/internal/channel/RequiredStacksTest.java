package io.polylink.core.internal.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.ContextId;
import io.polylink.Descriptor;
import io.polylink.DescriptorTable;
import io.polylink.Endpoint;
import io.polylink.MessageBuffer;
import io.polylink.NoApplicableMethodException;
import io.polylink.Startpoint;
import io.polylink.Verdict;
import io.polylink.core.internal.ChecksumTransform;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.core.internal.Internals;
import io.polylink.core.internal.PipeMethod;
import io.polylink.core.internal.wire.ControlFrame;
import io.polylink.core.internal.wire.FrameHeader;
import io.polylink.core.internal.wire.FuzzFrames;
import io.polylink.core.internal.wire.StackRefusal;
import io.polylink.spi.FrameReceiver;
import io.polylink.testkit.Await;
import io.polylink.testkit.LogCapture;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A context that requires stacks of its peers ({@code require}, {@code require.other-host}): RSRs
 * on other stacks are refused in band and never delivered, its replies never take such a stack,
 * and it advertises none. The transform {@code sum} stands for aead.
 */
class RequiredStacksTest {

    private static final String SUM = "sum";
    private static final int SINK = 1;

    private final PipeMethod.Network network = new PipeMethod.Network();
    private final List<EmbeddedContext> contexts = new ArrayList<>();
    private final LogCapture log = new LogCapture("io.polylink.core");

    @AfterEach
    void close() {
        log.close();
        contexts.forEach(EmbeddedContext::close);
        Await.noThreads("polylink-");
    }

    private EmbeddedContext open(Map<String, String> config) {
        EmbeddedContext c = EmbeddedContext.open(config).add(new PipeMethod(network, "pipe"), 10)
            .add(new ChecksumTransform(SUM));
        contexts.add(c);
        return c;
    }

    /** A sink at {@code where} counting what arrives, and a startpoint to it as {@code from} sees it. */
    private static Startpoint sink(EmbeddedContext where, EmbeddedContext from, AtomicInteger arrived) {
        Endpoint sink = where.context().createEndpoint().register(SINK, (e, m) -> arrived.incrementAndGet());
        return from.context().startpoint(sink.startpoint().toText());
    }

    /** Puts a plain pipe entry first, at the address of the table's sum/pipe entry: what a peer without the key does. */
    private static DescriptorTable plainFirst(DescriptorTable t) {
        return t.insert(0, new Descriptor("pipe", address(t, "sum/pipe")));
    }

    private static byte[] address(DescriptorTable t, String stack) {
        return t.entries().stream().filter(d -> d.stack().equals(stack)).findFirst().orElseThrow().address();
    }

    private void awaitLine(String part) {
        Await.until(() -> log.lines().stream().anyMatch(l -> l.contains(part)), Duration.ofSeconds(10),
            () -> "no line with '" + part + "' in " + log.lines());
    }

    @Test
    void anRsrOnAStackWithoutTheRequiredTransformIsRefusedInBandAndNeverDelivered() {
        EmbeddedContext b = open(Map.of("require", SUM, "table", "sum/pipe"));
        EmbeddedContext a = open(Map.of());
        AtomicInteger arrived = new AtomicInteger();
        Startpoint plain = sink(b, a, arrived).editTable(RequiredStacksTest::plainFirst).pin("pipe");

        plain.send(SINK, a.context().allocateBuffer(8).putLong(1));

        awaitLine("refusing stack 'pipe' on pipe connection to " + a.context().id() + ": this context requires sum "
            + "of every peer (require=sum in io.polylink.core); the peer moves its link to another stack");
        awaitLine("frame on refused stack 'pipe' from " + a.context().id() + " dropped");
        assertEquals(0, arrived.get(), "an RSR on a refused stack is never delivered");
        assertTrue(b.context().statistics().errors() >= 2, "the refusal and the dropped frame are counted");
        awaitLine("refused pipe: this context requires sum of every peer");
    }

    @Test
    void aLinkRefusedItsStackMovesToAnEntryThatMeetsTheRequirementAndLosesNothing() {
        EmbeddedContext b = open(Map.of("require", SUM, "table", "sum/pipe"));
        EmbeddedContext a = open(Map.of());
        AtomicInteger arrived = new AtomicInteger();
        Startpoint s = sink(b, a, arrived).editTable(RequiredStacksTest::plainFirst);
        MessageBuffer m = a.context().allocateBuffer(8);

        for (int i = 0; i < 100; i++) {
            s.send(SINK, m.clear().putLong(i));
        }

        Await.until(() -> arrived.get() == 100, Duration.ofSeconds(10), () -> arrived + " of 100 arrived");
        awaitLine("refusing stack 'pipe'");
        assertEquals("sum/pipe", s.explain().get(0).chosen().orElseThrow().descriptor().stack());
        s.send(SINK, m.clear().putLong(100));
        Await.until(() -> arrived.get() == 101, Duration.ofSeconds(10), () -> "the link stopped after moving");
    }

    @Test
    void aTableSentOnARefusedStackGoesAgainOnTheStackThePeerTakes() {
        EmbeddedContext b = open(Map.of("require", SUM, "table", "sum/pipe"));
        EmbeddedContext a = open(Map.of());
        AtomicReference<Object> read = new AtomicReference<>();
        Endpoint reader = b.context().createEndpoint().register(SINK, (e, m) -> {
            try {
                read.set(m.getStartpoint().toText());
            } catch (RuntimeException unreadable) {
                read.set(unreadable);
            }
        });
        String text = reader.startpoint().toText();
        Startpoint plain = a.context().startpoint(text).editTable(RequiredStacksTest::plainFirst).pin("pipe");
        Startpoint sealed = a.context().startpoint(text).pin("sum/pipe");
        Startpoint replyTo = a.context().createEndpoint().startpoint();
        MessageBuffer m = a.context().allocateBuffer(256);

        // The first carries replyTo's table on the stack b refuses and drops; the second goes on the
        // stack b takes, before a has heard of the refusal, and must carry the table again.
        plain.send(SINK, m.clear().putStartpoint(replyTo));
        sealed.send(SINK, m.clear().putStartpoint(replyTo));

        Await.until(() -> read.get() != null, Duration.ofSeconds(10), () -> "the sealed RSR never arrived");
        assertEquals(replyTo.toText(), read.get(), "b read the startpoint with the table that came on its stack");
    }

    @Test
    void aContextRequiringAStackNeverRepliesOnAnotherOne() {
        EmbeddedContext b = open(Map.of("require", SUM, "table", "sum/pipe"));
        EmbeddedContext a = open(Map.of());
        AtomicReference<String> failure = new AtomicReference<>();
        AtomicReference<Verdict> plainVerdict = new AtomicReference<>();
        Endpoint echo = b.context().createEndpoint().register(SINK, (e, m) -> {
            Startpoint replyTo = m.getStartpoint();
            plainVerdict.set(replyTo.explain().get(0).entries().stream()
                .filter(x -> x.descriptor().stack().equals("pipe")).findFirst().orElseThrow().verdict());
            try {
                replyTo.send(SINK, b.context().allocateBuffer(8).putLong(m.getLong()));
            } catch (NoApplicableMethodException refused) {
                failure.set(refused.getMessage());
            }
        });
        Startpoint toB = a.context().startpoint(echo.startpoint().toText());
        AtomicInteger replies = new AtomicInteger();
        Startpoint plainReply = a.context().createEndpoint().register(SINK, (e, m) -> replies.incrementAndGet())
            .startpoint();

        toB.send(SINK, a.context().allocateBuffer(128).putStartpoint(plainReply).putLong(1));

        Await.until(() -> failure.get() != null, Duration.ofSeconds(10), () -> "the reply was not refused");
        assertTrue(failure.get().contains("this context requires sum of every peer (require=sum in io.polylink.core)"),
            failure.get());
        assertEquals(Verdict.REFUSED, plainVerdict.get());

        Startpoint keyedReply = plainReply.editTable(t -> t.insert(1, new Descriptor("sum/pipe", address(t, "pipe"))));
        toB.send(SINK, a.context().allocateBuffer(128).putStartpoint(keyedReply).putLong(2));
        Await.until(() -> replies.get() == 1, Duration.ofSeconds(10), () -> "no reply over sum/pipe");
        assertEquals(0, b.links().stream().filter(l -> l.contains(" pipe ")).count(), "no link of b is plain: "
            + b.links());
    }

    @Test
    void scopedRequirementsGoByWhereThePeerSaysItRuns() {
        EmbeddedContext b = open(Map.of("require.other-host", SUM, "hostId", "rack-1"));
        EmbeddedContext sameHost = open(Map.of("hostId", "rack-1"));
        EmbeddedContext otherHost = open(Map.of("hostId", "rack-2"));
        AtomicInteger arrived = new AtomicInteger();
        Startpoint fromSameHost = sink(b, sameHost, arrived).pin("pipe");
        Startpoint fromOtherHost = sink(b, otherHost, arrived).pin("pipe");

        fromSameHost.send(SINK, sameHost.context().allocateBuffer(8).putLong(1));
        Await.until(() -> arrived.get() == 1, Duration.ofSeconds(10), () -> "plain pipe within the host refused");

        fromOtherHost.send(SINK, otherHost.context().allocateBuffer(8).putLong(2));
        awaitLine("this context requires sum of peers on other hosts (require.other-host=sum in io.polylink.core)");
        awaitLine("frame on refused stack 'pipe' from " + otherHost.context().id() + " dropped");
        assertEquals(1, arrived.get());
    }

    @Test
    void aContextAdvertisesOnlyStacksItAcceptsFromEveryPeer() {
        List<String> plainToo = stacks(open(Map.of("table", "pipe,sum/pipe")));
        List<String> keyedOnly = stacks(open(Map.of("table", "pipe,sum/pipe", "require", SUM)));
        List<String> keyedOrPipe = stacks(open(Map.of("table", "pipe,sum/pipe", "require", "sum,pipe")));

        assertEquals(List.of("local", "pipe", "sum/pipe"), plainToo);
        assertEquals(List.of("local", "sum/pipe"), keyedOnly);
        assertEquals(List.of("local", "pipe", "sum/pipe"), keyedOrPipe);
    }

    private static List<String> stacks(EmbeddedContext c) {
        return c.context().descriptorTable().entries().stream().map(Descriptor::stack).toList();
    }

    @Test
    void anRsrWithoutAStackIsRefusedAndThePeerToldOnce() {
        EmbeddedContext b = open(Map.of("require", SUM));
        List<Long> arrived = new CopyOnWriteArrayList<>();
        Endpoint sink = b.context().createEndpoint().register(SINK, (e, m) -> arrived.add(m.getLong()));
        RecordingConnection connection = new RecordingConnection(FuzzFrames.FAR_CONTEXT);
        FrameReceiver receiver = connection.attachTo(Internals.channels(b));
        byte[] plain = FuzzFrames.data(sink.id(), SINK, ByteBuffer.allocate(8).putLong(7).array());

        assertTrue(receiver.onFrame(ByteBuffer.wrap(plain)), "refused in band: the connection stays");
        assertTrue(receiver.onFrame(ByteBuffer.wrap(plain)));

        Await.until(() -> refusals(connection).size() == 1, Duration.ofSeconds(5), () -> "no refusal sent back");
        assertEquals(0, refusals(connection).get(0).stackId());
        assertTrue(refusals(connection).get(0).why().startsWith("this context requires sum of every peer"));
        assertEquals(List.of(), arrived);
        awaitLine("RSR without a stack from " + FuzzFrames.FAR_CONTEXT + " over fuzz dropped: this context requires sum");
        assertEquals(1, refusals(connection).size(), "the peer is told once per connection");
        assertTrue(connection.isOpen());
        connection.close();
    }

    @Test
    void aPeerTakingThisContextsOwnIdIsHeldToTheSameRequirement() {
        EmbeddedContext b = open(Map.of("require.other-host", SUM));
        ContextId self = b.context().id();
        AtomicInteger arrived = new AtomicInteger();
        Endpoint sink = b.context().createEndpoint().register(SINK, (e, m) -> arrived.incrementAndGet());
        RecordingConnection connection = new RecordingConnection(self);
        FrameReceiver receiver = connection.attachTo(Internals.channels(b));

        assertTrue(receiver.onFrame(ByteBuffer.wrap(FuzzFrames.stackAnnouncement(1, ""))));
        assertTrue(receiver.onFrame(ByteBuffer.wrap(FuzzFrames.frame(FrameHeader.FLAG_SEQUENCED, 1, SINK, sink.id(),
            1, new byte[8]))));

        Await.until(() -> refusals(connection).size() == 1, Duration.ofSeconds(5), () -> "no refusal sent back");
        assertEquals(1, refusals(connection).get(0).stackId());
        assertEquals(0, arrived.get());
        connection.close();
    }

    @Test
    void aRequirementNamingNoTransformOrMethodIsRefusedNamingTheKey() {
        var refused = assertThrows(io.polylink.spi.InvalidSettingException.class,
            () -> EmbeddedContext.open(Map.of("require.other-site", "AEAD!")));
        assertEquals("io.polylink.core: require.other-site='AEAD!' is not names of transforms or methods, "
            + "comma-separated, such as 'aead' or 'aead,shm'", refused.getMessage());
    }

    private static List<StackRefusal> refusals(RecordingConnection connection) {
        return connection.sent().stream()
            .filter(f -> (FrameHeader.flags(ByteBuffer.wrap(f)) & FrameHeader.FLAG_CONTROL) != 0
                && FrameHeader.handler(ByteBuffer.wrap(f)) == ControlFrame.REFUSED.code())
            .map(f -> StackRefusal.read(ByteBuffer.wrap(f, FrameHeader.LENGTH, f.length - FrameHeader.LENGTH)))
            .toList();
    }
}
