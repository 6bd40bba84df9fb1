package io.polylink.core.internal.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Endpoint;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.core.internal.PipeMethod;
import io.polylink.testkit.Await;
import io.polylink.testkit.LogCapture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A flow whose RSRs wait for acknowledgement when every way to its peer goes: it keeps trying in
 * the background, resumes by itself when a way comes back, and drops the RSRs after the abandon
 * time rather than keep their copies for the life of the context.
 */
class StrandedFlowTest {

    private static final int WAITING = 10; // fewer than a flow sends before asking for an acknowledgement

    private final PipeMethod.Network network = new PipeMethod.Network();
    /** Acknowledges only when asked, so what a sends stays unacknowledged until a asks. */
    private final EmbeddedContext b = EmbeddedContext.open(Map.of("quietAckMs", "0"));
    private final AtomicInteger delivered = new AtomicInteger();
    private final PipeMethod pipeA = new PipeMethod(network, "pipe");
    private final Endpoint sink = b.add(new PipeMethod(network, "pipe"), 10).context().createEndpoint()
        .register(1, (e, m) -> delivered.incrementAndGet());
    private EmbeddedContext a;
    private Startpoint toB;

    private void openA(long abandonAfterMs) {
        a = EmbeddedContext.open(Map.of("abandonAfterMs", abandonAfterMs));
        a.add(pipeA, 10);
        toB = a.context().startpoint(sink.startpoint().toText());
    }

    @AfterEach
    void close() {
        if (a != null) {
            a.close();
        }
        b.close();
        Await.noThreads("polylink-");
    }

    @Test
    void aStrandedFlowResumesByItselfWhenAWayComesBack() {
        openA(60_000);
        sendAndAwaitDelivery();
        a.remove(pipeA);
        awaitLink(l -> l.contains("unbound") && waiting(l) == WAITING, "stranded with " + WAITING + " waiting");

        a.add(new PipeMethod(network, "pipe"), 10);
        // No send: the retry thread moves the flow, replays, and the peer's acknowledgement empties it.
        awaitLink(l -> l.contains(" pipe ") && waiting(l) == 0, "bound again with nothing waiting");
        assertEquals(WAITING, delivered.get(), "the replayed copies were dropped as duplicates");
    }

    @Test
    void aFlowStrandedPastTheAbandonTimeDropsItsRsrsAndGoes() {
        openA(1_000);
        sendAndAwaitDelivery();
        a.remove(pipeA);
        Await.until(() -> a.links().isEmpty(), Duration.ofSeconds(10),
            () -> "the flow still holds its RSRs 1 s after its last way to the peer went: " + a.links());

        a.add(new PipeMethod(network, "pipe"), 10);
        toB.send(1, a.context().allocateBuffer(8).putLong(1));
        Await.until(() -> delivered.get() == WAITING + 1, Duration.ofSeconds(10),
            () -> "a fresh flow did not carry the next RSR: " + delivered.get() + " delivered");
    }

    @Test
    void flowsAbandonedInAFloodAreLoggedAFewLinesASecondWithEveryLostRsrCounted() {
        int flows = 30;
        openA(1_000);
        List<Startpoint> targets = new ArrayList<>();
        for (int i = 0; i < flows; i++) {
            // Settings of its own: a flow of its own.
            targets.add(a.context().startpoint(toB.toText()).parameter("pipe", "flow", Integer.toString(i)));
        }
        try (LogCapture log = new LogCapture("io.polylink.core")) {
            MessageBuffer m = a.context().allocateBuffer(8);
            for (Startpoint t : targets) {
                for (int i = 0; i < WAITING; i++) {
                    t.send(1, m.clear().putLong(i));
                }
            }
            Await.until(() -> delivered.get() == flows * WAITING, Duration.ofSeconds(10), () -> delivered + " delivered");
            a.remove(pipeA);

            Await.until(() -> lost(log.lines()) == flows * WAITING, Duration.ofSeconds(20),
                () -> "not every lost RSR was told: " + log.lines());
            long lines = log.lines().stream().filter(l -> l.contains("the peer never acknowledged")).count();
            assertTrue(lines < flows, lines + " lines for " + flows + " abandoned flows: " + log.lines());
        }
    }

    private static final Pattern DROPPED = Pattern.compile("dropped (\\d+) RSRs \\(");
    /** In a line of its own once the second is over, or at the end of the next line of the kind. */
    private static final Pattern HELD_BACK = Pattern.compile("more like it held back, (\\d+) RSRs in them");

    /** @return the RSRs the lines say were lost, in lines of their own and in what was held back */
    private static long lost(List<String> lines) {
        long total = 0;
        for (String line : lines) {
            Matcher dropped = DROPPED.matcher(line);
            Matcher held = HELD_BACK.matcher(line);
            if (dropped.find()) {
                total += Long.parseLong(dropped.group(1));
            }
            if (held.find()) {
                total += Long.parseLong(held.group(1));
            }
        }
        return total;
    }

    private void sendAndAwaitDelivery() {
        MessageBuffer m = a.context().allocateBuffer(8);
        for (int i = 0; i < WAITING; i++) {
            toB.send(1, m.clear().putLong(i));
        }
        Await.until(() -> delivered.get() == WAITING, Duration.ofSeconds(10), () -> delivered.get() + " delivered");
        assertTrue(waiting(a.links().get(0)) == WAITING, "unacknowledged yet: " + a.links());
    }

    private void awaitLink(Predicate<String> state, String what) {
        Await.until(() -> a.links().size() == 1 && state.test(a.links().get(0)), Duration.ofSeconds(10),
            () -> "the flow is not " + what + ": " + a.links());
    }

    /** The last column of a {@code polylink:links} line. */
    private static int waiting(String line) {
        String[] columns = line.trim().split("\\s+");
        return Integer.parseInt(columns[columns.length - 1]);
    }
}
