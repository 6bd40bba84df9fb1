package io.polylink.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import io.polylink.testkit.Await;
import io.polylink.testkit.LogCapture;
import io.polylink.testkit.SequenceCheck;
import io.polylink.testkit.UncaughtThrowables;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Errors thrown by a transform session or a method's connection, on each thread that meets them
 * (a method's receiving thread, a sender's, the control thread, the handler pool, the retry timer):
 * the channel they broke is closed and reported, the flows on it move and lose nothing, and no
 * thread dies. Two contexts on the pipe test method, with the pass-through {@code fault} transform.
 */
class FaultInjectionTest {

    /** What a transform or method with a bug throws. */
    static final class InjectedError extends Error {
        private static final long serialVersionUID = 1L;

        InjectedError(String where) {
            super("injected into " + where);
        }
    }

    private static final int SINK = 1;

    private final UncaughtThrowables uncaught = new UncaughtThrowables();
    private final LogCapture log = new LogCapture("io.polylink.core");
    private final PipeMethod.Network network = new PipeMethod.Network();
    private final PipeMethod pipeA = new PipeMethod(network, "pipe");
    private final PipeMethod pipeB = new PipeMethod(network, "pipe");
    private final FaultTransform faultA = new FaultTransform();
    private final FaultTransform faultB = new FaultTransform();
    private final EmbeddedContext a = EmbeddedContext.open(Map.of("table", "fault/pipe")).add(pipeA, 10).add(faultA);
    private final EmbeddedContext b = EmbeddedContext.open(Map.of("table", "fault/pipe")).add(pipeB, 10).add(faultB);
    private final SequenceCheck check = new SequenceCheck();
    private final Startpoint toB = a.context().startpoint(b.context().createEndpoint()
        .register(SINK, (e, m) -> check.accept(m.getLong(), true)).startpoint().toText());
    private final MessageBuffer message = a.context().allocateBuffer(8);
    private long sent;

    @AfterEach
    void close() {
        try {
            a.close();
            b.close();
            Await.noThreads("polylink-");
            assertEquals(List.of(), uncaught.deaths(), "threads died");
        } finally {
            uncaught.close();
            log.close();
        }
    }

    /** Sends {@code count} numbered RSRs and waits for all sent so far to arrive, once each and in order. */
    private void stream(int count) {
        for (int i = 0; i < count; i++) {
            toB.send(SINK, message.clear().putLong(sent++));
        }
        Await.until(() -> check.delivered() == sent, Duration.ofSeconds(20), () -> check.summary(sent));
        assertTrue(check.perfect(sent), check.summary(sent));
    }

    private void awaitLine(String part) {
        Await.until(() -> log.lines().stream().anyMatch(l -> l.contains(part)), Duration.ofSeconds(10),
            () -> "no line with '" + part + "' in " + log.lines());
    }

    @Test
    void anErrorDecodingOnTheReceivingThreadClosesThatConnectionAndTheLinkCarriesOn() {
        stream(100);
        faultB.nextDecode.set(new InjectedError("decode"));
        faultB.nextClose.set(new InjectedError("close"));

        stream(100);

        awaitLine("closing pipe connection to " + a.context().id() + ": receiving a frame threw "
            + InjectedError.class.getName() + ": injected into decode");
        awaitLine("transform fault threw as its session on pipe connection to " + a.context().id() + " closed: "
            + InjectedError.class.getName() + ": injected into close");
    }

    @Test
    void anErrorEncodingOnTheSendersThreadClosesThatConnectionAndTheSendStillGoesThrough() {
        stream(100);
        faultA.nextEncode.set(new InjectedError("encode"));

        stream(100);

        awaitLine("closing pipe connection to " + b.context().id() + ": pipe connection to " + b.context().id()
            + " broke while sending: " + InjectedError.class.getName() + ": injected into encode; closing it");
    }

    @Test
    void anErrorAnywhereInAChannelsSendClosesThatConnectionAndTheFlowKeepsTheRsrItNumbered() {
        stream(100);
        // Thrown in the channel's send but out of the method's and the encoder's calls, as the JVM's
        // report of a fault on a mapping is, raised at some later point of the thread that met it.
        faultA.nextReady.set(new InjectedError("a look whether the stack is ready"));

        stream(100);

        awaitLine("closing pipe connection to " + b.context().id() + ": pipe connection to " + b.context().id()
            + " broke while sending: " + InjectedError.class.getName() + ": injected into a look whether the stack "
            + "is ready; closing it");
    }

    @Test
    void eachConnectionAnErrorBrokeIsNamedInTheLogThoughSeveralBreakInOneSecond() {
        stream(100);
        faultB.nextDecode.set(new InjectedError("a first decode"));
        stream(100);
        faultB.nextDecode.set(new InjectedError("a second decode"));
        stream(100);

        // As the JVM's report of a fault on a mapping can end several connections at once.
        for (String which : List.of("first", "second")) {
            awaitLine("closing pipe connection to " + a.context().id() + ": receiving a frame threw "
                + InjectedError.class.getName() + ": injected into a " + which + " decode");
        }
    }

    @Test
    void anErrorSendingOnTheControlThreadClosesThatConnectionAndTheThreadSendsForOthersAfter() {
        pipeB.declineTrySend = true; // every acknowledgement b owes goes from its control thread
        stream(100);
        pipeB.nextSendError.set(new InjectedError("an acknowledgement's send"));

        stream(200);

        awaitLine("closing pipe connection to " + a.context().id() + ": pipe connection to " + a.context().id()
            + " broke while sending: " + InjectedError.class.getName() + ": injected into an acknowledgement's send");
        Await.until(() -> a.links().stream().allMatch(l -> l.endsWith(" 0")), Duration.ofSeconds(10),
            () -> "b's control thread acknowledges nothing since: " + a.links());
    }

    @Test
    void anErrorConnectingWhileALinkMovesOnTheHandlerPoolIsTriedAgainFromTheRetryTimer() {
        stream(100);
        faultB.nextDecode.set(new InjectedError("decode"));
        pipeA.nextConnectError.set(new InjectedError("connect"));

        stream(1);

        awaitLine("pipe failed to connect to pipe:2: " + InjectedError.class.getName() + ": injected into connect");
        assertTrue(pipeA.connectingThreads.stream().anyMatch(t -> t.startsWith("polylink-handler-")),
            "the move connected from the handler pool: " + pipeA.connectingThreads);
        assertTrue(pipeA.connectingThreads.stream().anyMatch(t -> t.startsWith("polylink-retry-")),
            "the retry connected from the timer: " + pipeA.connectingThreads);
        stream(100);
    }
}
