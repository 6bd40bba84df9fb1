package io.polylink.method.shm.internal;

import static io.polylink.method.shm.internal.ShmContexts.heldAtFirstRsr;
import static io.polylink.method.shm.internal.ShmContexts.in;
import static io.polylink.method.shm.internal.ShmContexts.scribble;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.polylink.Context;
import io.polylink.Startpoint;
import io.polylink.spi.Connection;
import io.polylink.method.shm.internal.segment.Mapped;
import io.polylink.method.shm.internal.segment.Segment;
import io.polylink.testkit.Await;
import io.polylink.testkit.EchoStreams;
import io.polylink.testkit.FrozenDirectory;
import io.polylink.testkit.LogCapture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Contexts in one JVM whose inbox, directory or peer fails: each failure is reported, the links
 * move to tcp with no RSR lost, duplicated or reordered, and shm comes back once it can, without
 * a restart.
 */
class ShmFailuresTest {

    @RegisterExtension
    final ShmContexts contexts = new ShmContexts();
    private final List<EchoStreams> opened = new ArrayList<>();

    /**
     * @return echo streams from context {@code from} to the system endpoint of the context made
     *     {@code to}th, a phase begun: requests go one way, echoes the other
     */
    private EchoStreams echoes(Context from, int to) {
        EchoStreams streams = new EchoStreams(from, 1, 200, 16);
        opened.add(streams);
        streams.begin("echoes", in(from, contexts.embedded(to).systemStartpoint()), streams.sink());
        return streams;
    }

    /** Waits, echoes flowing, until the requests travel on {@code stack}. */
    private static void awaitStack(EchoStreams streams, String stack) {
        Await.until(() -> stack.equals(streams.requestStack()), Duration.ofSeconds(30),
            () -> "the requests did not move to " + stack + ": " + streams.explainRequests());
        streams.awaitEchoes(100, Duration.ofSeconds(30));
    }

    /** Ends the phase: every request was echoed once and in order. */
    private static void assertPerfect(EchoStreams streams) throws InterruptedException {
        EchoStreams.Result result = streams.end(Duration.ofSeconds(30));
        System.out.println(result);
        assertTrue(result.perfect(), result.toString());
    }

    /** Stops every stream's sender, before the contexts close; also when a test failed. */
    @AfterEach
    void stopStreams() throws InterruptedException {
        for (EchoStreams streams : opened) {
            streams.close();
        }
    }

    /** @return how many beats {@code c}'s inbox counted */
    private long beats(Context c) {
        try (Segment inbox = Mapped.inbox(contexts.inboxOf(c))) {
            return inbox.heartbeatCount();
        }
    }

    @Test
    void theHeartbeatStandsStillWhileThePollerIsHeldAndGoesOnOnceItIsFree() throws Exception {
        Context a = contexts.context();
        Context b = contexts.context();
        CountDownLatch release = new CountDownLatch(1);
        AtomicLong received = new AtomicLong();
        Startpoint held = heldAtFirstRsr(a, b, release, received);
        try {
            held.send(1, a.allocateBuffer(0));
            Await.until(() -> received.get() == 1, Duration.ofSeconds(5), () -> "b's poller never took the RSR");
            // a's heartbeat is the clock: six of its beats outlast the poller's stall allowance twice.
            long clock = beats(a);
            Await.until(() -> beats(a) >= clock + 6, Duration.ofSeconds(10), () -> "a's heartbeat stood still");
            long frozen = beats(b);
            Await.until(() -> beats(a) >= clock + 12, Duration.ofSeconds(10), () -> "a's heartbeat stood still");
            assertEquals(frozen, beats(b), "b's heartbeat went on while its poller was held in a handler");
        } finally {
            release.countDown();
        }
        long after = beats(b);
        Await.until(() -> beats(b) > after + 2, Duration.ofSeconds(5), () -> "b's heartbeat did not come back");
    }

    @Test
    void aPeerThatClosesInOrderEndsItsConnectionsInOrderEvenBeforeItsGoodbyeIsRead() throws Exception {
        Context a = contexts.context();
        Context b = contexts.context();
        Connection toA = contexts.method(1).connect(a.id(), contexts.method(0).localAddress(), Map.of());
        CountDownLatch release = new CountDownLatch(1);
        AtomicLong received = new AtomicLong();
        Startpoint held = heldAtFirstRsr(a, b, release, received);
        try (LogCapture core = new LogCapture("io.polylink.core")) {
            held.send(1, a.allocateBuffer(0));
            Await.until(() -> received.get() == 1, Duration.ofSeconds(5), () -> "b's poller never took the RSR");
            long errors = contexts.method(1).statistics().errors();
            // b's poller, held, cannot read a's goodbye: only b's heartbeat timer sees a's inbox closed.
            contexts.embedded(0).close();
            Await.until(() -> !toA.isOpen(), Duration.ofSeconds(10),
                () -> "b's connection to a stayed open after a closed its inbox");
            assertEquals(errors, contexts.method(1).statistics().errors(), "errors counted for an orderly close");
            assertTrue(core.lines().stream().noneMatch(l -> l.contains("closed")), String.join("\n", core.lines()));
        } finally {
            release.countDown();
        }
        Context c = contexts.context();
        EchoStreams streams = echoes(c, 1);
        streams.awaitEchoes(100, Duration.ofSeconds(30));
        assertPerfect(streams);
    }

    @Test
    void aPeerThatCannotBeAnsweredIsRefusedAndItsLinkMovesToTcpWithNothingLost(@TempDir Path apart)
            throws Exception {
        // a maps inboxes in b's directory; b does not trust a's, so it cannot answer a.
        Context a = contexts.both(Map.of("trustedDirectories", apart.toString()));
        Context b = contexts.both(Map.of("directory", apart.toString()));
        try (LogCapture shm = new LogCapture("io.polylink.method.shm");
             LogCapture core = new LogCapture("io.polylink.core")) {
            EchoStreams streams = echoes(a, 1);
            streams.awaitEchoes(1000, Duration.ofSeconds(30));
            assertEquals("tcp", streams.requestStack());
            assertPerfect(streams);
            assertTrue(shm.lines().stream().anyMatch(l -> l.startsWith("shm: cannot answer context " + a.id()
                + ": shm maps no inbox ") && l.endsWith("; its connection is refused, so its links use another method "
                + "and try shm again later")), String.join("\n", shm.lines()));
            assertTrue(core.lines().stream().anyMatch(l -> l.contains("context " + b.id() + " could not answer this "
                + "connection (its log says why)")), String.join("\n", core.lines()));
        }
    }

    @Test
    void aContextThatCannotWriteItsDirectoryAtStartRunsWithoutShmUntilItCan() throws Exception {
        Context a = contexts.both(Map.of());
        EchoStreams streams;
        try (FrozenDirectory frozen = freeze(contexts.directory())) {
            Context b = contexts.both(Map.of());
            streams = echoes(a, 1);
            streams.awaitEchoes(100, Duration.ofSeconds(30));
            assertEquals("tcp", streams.requestStack());
            String refused = in(b, a.createEndpoint().startpoint()).explain().get(0).entries().get(1).reason();
            assertTrue(refused.startsWith("shm has no inbox here: cannot create shm segment " + contexts.inboxOf(b)
                + ": "), refused);
        }
        awaitStack(streams, "shm");
        assertPerfect(streams);
    }

    @Test
    void aCorruptInboxThatCannotBeReplacedLeavesShmDownUntilItsDirectoryCanBeWrittenAgain() throws Exception {
        Context a = contexts.both(Map.of());
        Context b = contexts.both(Map.of());
        EchoStreams streams = echoes(a, 1);
        awaitStack(streams, "shm");
        try (LogCapture log = new LogCapture("io.polylink.method.shm")) {
            try (FrozenDirectory frozen = freeze(contexts.directory())) {
                scribble(contexts.inboxOf(b));
                awaitStack(streams, "tcp");
                assertTrue(log.lines().stream().anyMatch(l -> l.matches("shm inbox " + contexts.inboxOf(b) + " is "
                    + "corrupt: .*; closing its connections and no fresh one can be made \\(cannot create shm segment "
                    + contexts.inboxOf(b) + ": .*\\): links use other methods, and shm tries again every second")),
                    String.join("\n", log.lines()));
            }
            awaitStack(streams, "shm");
            assertTrue(log.lines().contains("shm has an inbox again: " + contexts.inboxOf(b) + "; links come back "
                + "to shm as they look for better methods"), String.join("\n", log.lines()));
        }
        assertPerfect(streams);
    }

    @Test
    void anInboxRemovedFromItsDirectoryIsMadeAgainForNewLinks() throws Exception {
        Context a = contexts.both(Map.of());
        Context b = contexts.both(Map.of());
        EchoStreams streams = echoes(a, 1);
        awaitStack(streams, "shm");
        Files.delete(contexts.inboxOf(b));
        Await.until(() -> Files.exists(contexts.inboxOf(b)), Duration.ofSeconds(10), () -> "b made no fresh inbox");
        Context c = contexts.both(Map.of());
        EchoStreams late = echoes(c, 1);
        awaitStack(late, "shm");
        awaitStack(streams, "shm");
        assertPerfect(late);
        assertPerfect(streams);
    }

    private static FrozenDirectory freeze(Path directory) {
        try {
            return FrozenDirectory.freeze(directory);
        } catch (IOException e) {
            assumeTrue(false, "this user cannot make a directory refuse new files: " + e.getMessage());
            throw new IllegalStateException(e);
        }
    }
}
