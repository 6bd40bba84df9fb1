package io.polylink.method.tcp.internal.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.method.tcp.internal.TestMethodContext;
import io.polylink.spi.ProblemLog;
import io.polylink.testkit.Await;
import io.polylink.testkit.ThreadCpu;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SelectionKey;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongUnaryOperator;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class IoLoopTest {

    private static final ProblemLog PROBLEMS = TestMethodContext.logging();

    /** A loop whose problems go to the log, and which must never have to stop on its own. */
    private static IoLoop loop(String name, IdleStrategy idle, long spinNanos, LongUnaryOperator tick)
            throws IOException {
        return new IoLoop(name, idle, spinNanos, tick, PROBLEMS,
            cause -> { throw new AssertionError(name + " stopped on its own", cause); });
    }

    /** @return a handler that reads as {@code ready} says, and closes its channel if that throws */
    private static IoHandler reading(Predicate<SelectionKey> ready) {
        return new IoHandler() {
            @Override
            public boolean ready(SelectionKey key) {
                return ready.test(key);
            }

            @Override
            public void failed(Throwable cause) {
                throw new AssertionError("the test's handler failed", cause);
            }
        };
    }

    /** A handler in a conversation without end: the loop may always read it directly, and it always has bytes. */
    private static class Chatty implements IoHandler {
        final AtomicLong polls = new AtomicLong();


        @Override
        public void failed(Throwable cause) {
            throw new AssertionError("the test's handler failed", cause);
        }
        @Override
        public boolean ready(SelectionKey key) {
            drain(key);
            return true;
        }

        @Override
        public boolean pollable() {
            return true;
        }

        @Override
        public boolean poll() {
            polls.incrementAndGet();
            return true;
        }
    }

    /**
     * Counts the reads that found bytes; sends in bulk or not, as told, and counts how often the
     * loop asked while idle: a spinning loop yields its core on each turn it is told yes, and only
     * then.
     */
    private static final class Counting implements IoHandler {
        final AtomicInteger reads = new AtomicInteger();
        final AtomicLong askedIfBulk = new AtomicLong();
        private final boolean sendsInBulk;

        Counting(boolean sendsInBulk) {
            this.sendsInBulk = sendsInBulk;
        }


        @Override
        public void failed(Throwable cause) {
            throw new AssertionError("the test's handler failed", cause);
        }
        @Override
        public boolean ready(SelectionKey key) {
            drain(key);
            reads.incrementAndGet();
            return true;
        }

        @Override
        public boolean sendsInBulk() {
            askedIfBulk.incrementAndGet();
            return sendsInBulk;
        }
    }

    private static void drain(SelectionKey key) {
        try {
            ((ReadableByteChannel) key.channel()).read(ByteBuffer.allocate(16));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A caller that calls only now and then, each pass too late to read the conversation's
     * channel directly, still reads it: the selector, which no longer watches that channel, would
     * never report it, and the loop, napping while the calls come, reads it only in its turns.
     */
    @Test
    void aCallerThatCallsNowAndThenStillReadsTheChannelTheLoopStoppedWatching() throws Exception {
        IoLoop loop = loop("polylink-test-io", IdleStrategy.BLOCK, 0, held -> IoLoop.NO_TIMERS);
        Pipe pipe = Pipe.open();
        Thread caller = Thread.currentThread();
        AtomicInteger callerReads = new AtomicInteger();
        try (loop; Pipe.SinkChannel sink = pipe.sink(); Pipe.SourceChannel source = pipe.source()) {
            source.configureBlocking(false);
            loop.execute(() -> loop.register(source, SelectionKey.OP_READ, new Chatty() {
                @Override
                public boolean drivable() {
                    return true;
                }

                @Override
                public boolean poll() {
                    if (Thread.currentThread() == caller) {
                        callerReads.incrementAndGet();
                    }
                    return false;
                }
            }));
            sink.write(ByteBuffer.wrap(new byte[] {1})); // makes the channel the one read directly
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (loop.watchesHot()) {
                loop.progress();
                assertTrue(System.nanoTime() - deadline < 0, "the loop never stopped watching its conversation");
            }
            callerReads.set(0);
            int calls = 200;
            for (int i = 0; i < calls; i++) {
                loop.progress();
                long computing = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(100);
                while (System.nanoTime() - computing < 0) {
                    Thread.onSpinWait();
                }
            }
            assertTrue(callerReads.get() >= calls / 2, "of " + calls + " calls 100 µs apart, " + callerReads.get()
                + " read the conversation's channel: the others asked a selector that does not watch it");
        }
    }

    /**
     * A handler that runs inside a caller's {@code progress()} and closes the loop: the loop's
     * thread, waiting for its turn, stops at once instead of being waited out.
     */
    @Test
    void aHandlerOnACallersThreadClosesTheLoopWithoutWaitingOutTheLoopsThread() throws Exception {
        IoLoop loop = loop("polylink-test-io", IdleStrategy.BLOCK, 0, held -> IoLoop.NO_TIMERS);
        Pipe pipe = Pipe.open();
        Thread caller = Thread.currentThread();
        AtomicLong closeNanos = new AtomicLong(-1);
        try (loop; Pipe.SinkChannel sink = pipe.sink(); Pipe.SourceChannel source = pipe.source()) {
            source.configureBlocking(false);
            sink.configureBlocking(false); // the loop drains a little per wake-up; a full pipe takes nothing
            loop.execute(() -> loop.register(source, SelectionKey.OP_READ, new IoHandler() {
                @Override
                public boolean ready(SelectionKey key) {
                    drain(key);
                    return true;
                }

                @Override
                public void failed(Throwable cause) {
                    throw new AssertionError("the test's handler failed", cause);
                }

                @Override
                public boolean drivable() {
                    return true;
                }

                @Override
                public boolean poll() {
                    if (Thread.currentThread() == caller && closeNanos.get() < 0) {
                        long start = System.nanoTime();
                        loop.close();
                        closeNanos.set(System.nanoTime() - start);
                    }
                    return true;
                }
            }));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (closeNanos.get() < 0) {
                sink.write(ByteBuffer.wrap(new byte[] {1}));
                loop.progress();
                assertTrue(System.nanoTime() - deadline < 0, "no caller's pass read the pipe within 10 s");
            }
            assertTrue(closeNanos.get() < TimeUnit.SECONDS.toNanos(2), "close() from a caller's handler took "
                + TimeUnit.NANOSECONDS.toMillis(closeNanos.get()) + " ms: it waited out the loop's thread");
            assertFalse(loop.alive(), "the loop runs on after close()");
            assertEquals(0, loop.progress(), "progress() after close()");
        }
    }

    /**
     * A handler that throws an Error is told to close its channel, and the loop reads the next
     * channel's bytes: nothing one channel does ends the thread.
     */
    @Test
    void aHandlerThatThrowsIsClosedAndTheLoopServesTheOthers() throws Exception {
        IoLoop loop = loop("polylink-test-io", IdleStrategy.BLOCK, 0, held -> IoLoop.NO_TIMERS);
        Pipe bad = Pipe.open();
        Pipe good = Pipe.open();
        try (loop; Pipe.SinkChannel badSink = bad.sink(); Pipe.SinkChannel goodSink = good.sink()) {
            bad.source().configureBlocking(false);
            good.source().configureBlocking(false);
            CountDownLatch told = new CountDownLatch(1);
            CountDownLatch goodRead = new CountDownLatch(1);
            loop.execute(() -> {
                loop.register(bad.source(), SelectionKey.OP_READ, new IoHandler() {
                    @Override
                    public boolean ready(SelectionKey key) {
                        throw new StackOverflowError("thrown by the test's handler");
                    }

                    @Override
                    public void failed(Throwable cause) {
                        assertTrue(cause instanceof StackOverflowError, String.valueOf(cause));
                        try {
                            bad.source().close();
                        } catch (IOException e) {
                            throw new IllegalStateException(e);
                        }
                        told.countDown();
                    }
                });
                loop.register(good.source(), SelectionKey.OP_READ, reading(key -> {
                    drain(key);
                    goodRead.countDown();
                    return true;
                }));
            });
            badSink.write(ByteBuffer.wrap(new byte[] {1}));
            assertTrue(told.await(10, TimeUnit.SECONDS), "the handler that threw was not told to close");
            goodSink.write(ByteBuffer.wrap(new byte[] {1}));
            assertTrue(goodRead.await(10, TimeUnit.SECONDS), "the loop stopped reading after a handler threw");
            assertTrue(loop.alive(), "the loop's thread ended");
        }
    }

    /** A turn that fails now and then is survived; turns failing on and on mean the loop cannot go on, and it says so. */
    @Test
    void aLoopWhoseTurnsKeepFailingStopsAndSaysWhy() throws Exception {
        AtomicInteger ticks = new AtomicInteger();
        AtomicInteger lines = new AtomicInteger();
        ProblemLog counting = new ProblemLog() {
            @Override
            public void warn(String kind, String message, Throwable cause) {
                assertEquals("polylink-test-failing survived an unexpected failure and goes on: "
                    + "java.lang.IllegalStateException: a timer the tick let through", message);
                lines.incrementAndGet();
            }

            @Override
            public void warn(String kind, int perSecond, String message, Throwable cause) {
                warn(kind, message, cause);
            }
        };
        CompletableFuture<Throwable> stopped = new CompletableFuture<>();
        IoLoop loop = new IoLoop("polylink-test-failing", IdleStrategy.BLOCK, 0, held -> {
            if (ticks.incrementAndGet() > 3) {
                throw new IllegalStateException("a timer the tick let through");
            }
            return TimeUnit.MILLISECONDS.toNanos(1);
        }, counting, stopped::complete);
        try (loop) {
            Throwable why = stopped.get(30, TimeUnit.SECONDS);
            assertEquals("polylink-test-failing failed 100 turns in a row, the last with java.lang.IllegalStateException: "
                + "a timer the tick let through", why.getMessage());
            Await.until(() -> !loop.alive(), Duration.ofSeconds(10), () -> "the loop's thread still runs");
            assertEquals(99, lines.get(), "each failed turn but the last is logged, and the loop went on after it");
        }
    }

    @Test
    void aChannelReadDirectlyLeavesTheSelectorToTheOthers() throws Exception {
        try (Talk talk = Talk.open()) {
            Chatty chatty = new Chatty();
            CountDownLatch otherRead = new CountDownLatch(1);
            talk.start(chatty, otherRead::countDown, 1000);
            talk.writeOther();
            assertTrue(otherRead.await(10, TimeUnit.SECONDS),
                "another channel's bytes went unread while the loop read the talking one directly");
        }
    }

    /**
     * The loop asks the selector every 64 turns while it reads a conversation directly, and sooner
     * when turns are long: a conversation whose every read takes 100 µs must not keep another
     * channel waiting 64 of them.
     */
    @Test
    void longTurnsOnAChannelReadDirectlyLeaveTheSelectorToTheOthersAtOnce() throws Exception {
        try (Talk talk = Talk.open()) {
            Chatty slow = new Chatty() {
                @Override
                public boolean poll() {
                    long end = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(100);
                    while (System.nanoTime() - end < 0) {
                        Thread.onSpinWait();
                    }
                    return super.poll();
                }
            };
            AtomicLong pollsWhenRead = new AtomicLong(-1);
            talk.start(slow, () -> pollsWhenRead.set(slow.polls.get()), 100);
            long pollsWhenWritten = slow.polls.get();
            talk.writeOther();
            Await.until(() -> pollsWhenRead.get() >= 0, Duration.ofSeconds(10),
                () -> "another channel's bytes went unread while the loop read the talking one directly");
            assertTrue(pollsWhenRead.get() - pollsWhenWritten <= 3, "another channel was read only after "
                + (pollsWhenRead.get() - pollsWhenWritten) + " direct reads of 100 µs each");
        }
    }

    /**
     * The loop reading a conversation's channel directly stops the selector watching it, and
     * has it watched again before it blocks: without timers, nothing else would wake it for the
     * channel's next bytes. The conversation goes on, a byte a millisecond, until the handler has
     * read one with the channel unwatched: a loop kept off its core for its whole spin would
     * otherwise block before reading the conversation long enough to stop watching it.
     */
    @Test
    void aChannelReadDirectlyGoesUnwatchedAndIsWatchedAgainBeforeTheLoopBlocks() throws Exception {
        IoLoop loop = loop("polylink-test-io", IdleStrategy.SPIN_THEN_BLOCK, TimeUnit.MILLISECONDS.toNanos(1),
            held -> IoLoop.NO_TIMERS);
        Pipe pipe = Pipe.open();
        try (loop; Pipe.SinkChannel sink = pipe.sink(); Pipe.SourceChannel source = pipe.source()) {
            source.configureBlocking(false);
            AtomicInteger bytes = new AtomicInteger();
            AtomicBoolean readUnwatched = new AtomicBoolean();
            IoHandler conversing = new IoHandler() {
                @Override
                public void failed(Throwable cause) {
                    throw new AssertionError("the test's handler failed", cause);
                }

                @Override
                public boolean ready(SelectionKey key) {
                    return poll();
                }

                @Override
                public boolean pollable() {
                    return true;
                }

                @Override
                public boolean poll() {
                    try {
                        int n = source.read(ByteBuffer.allocate(16));
                        if (n > 0 && !loop.watchesHot()) {
                            readUnwatched.set(true);
                        }
                        bytes.addAndGet(Math.max(n, 0));
                        return n > 0;
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                }
            };
            loop.execute(() -> loop.register(source, SelectionKey.OP_READ, conversing));
            AtomicInteger written = new AtomicInteger();
            Await.until(() -> {
                if (readUnwatched.get()) {
                    return true;
                }
                write(sink, written);
                return false;
            }, Duration.ofSeconds(10), () -> "the loop read " + bytes.get() + " of " + written.get()
                + " bytes, none with the selector no longer watching the channel");
            Await.until(loop::asleep, Duration.ofSeconds(10), () -> "the loop never blocked after the conversation");
            assertTrue(loop.watchesHot(), "the loop blocked with the channel it read directly unwatched");
            write(sink, written);
            Await.until(() -> bytes.get() == written.get(), Duration.ofSeconds(10),
                () -> "the byte sent to the sleeping loop went unread");
        }
    }

    private static void write(Pipe.SinkChannel sink, AtomicInteger written) {
        try {
            sink.write(ByteBuffer.wrap(new byte[] {(byte) written.incrementAndGet()}));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A spinning loop with a talking channel and another, closed together. */
    private record Talk(IoLoop loop, Pipe talking, Pipe other) implements AutoCloseable {

        static Talk open() throws IOException {
            IoLoop loop = IoLoopTest.loop("polylink-test-io", IdleStrategy.SPIN, 0,
                held -> TimeUnit.MILLISECONDS.toNanos(100));
            Talk talk = new Talk(loop, Pipe.open(), Pipe.open());
            talk.talking.source().configureBlocking(false);
            talk.other.source().configureBlocking(false);
            return talk;
        }

        /**
         * Registers both channels, then starts the talk and waits until the loop read the talking
         * one directly {@code polls} times; {@code onOther} runs when the other is read.
         */
        void start(Chatty chatty, Runnable onOther, long polls) throws Exception {
            CountDownLatch registered = new CountDownLatch(1);
            loop.execute(() -> {
                loop.register(talking.source(), SelectionKey.OP_READ, chatty);
                loop.register(other.source(), SelectionKey.OP_READ, reading(key -> {
                    drain(key);
                    onOther.run();
                    return true;
                }));
                registered.countDown();
            });
            assertTrue(registered.await(10, TimeUnit.SECONDS), "the loop never registered the channels");
            talking.sink().write(ByteBuffer.wrap(new byte[] {1}));
            Await.until(() -> chatty.polls.get() > polls, Duration.ofSeconds(10),
                () -> "the loop read the talking channel directly only " + chatty.polls.get() + " times");
        }

        void writeOther() throws IOException {
            other.sink().write(ByteBuffer.wrap(new byte[] {1}));
        }

        @Override
        public void close() throws IOException {
            loop.close();
            talking.sink().close();
            other.sink().close();
        }
    }

    @Test
    void aLoopWithoutTimersSleepsUntilAChannelIsRegistered() throws Exception {
        AtomicInteger ticks = new AtomicInteger();
        long fiveMillis = TimeUnit.MILLISECONDS.toNanos(5);
        IoLoop loop = loop("polylink-test-io", IdleStrategy.BLOCK, 0,
            held -> ticks.incrementAndGet() > 1 ? fiveMillis : IoLoop.NO_TIMERS);
        Pipe pipe = Pipe.open();
        try {
            Await.until(() -> ticks.get() == 1, Duration.ofSeconds(10), () -> "the loop never ticked");
            new CountDownLatch(1).await(200, TimeUnit.MILLISECONDS); // forty tick intervals
            assertEquals(1, ticks.get(), "ticks after the tick said it has no timers");
            pipe.source().configureBlocking(false);
            loop.execute(() -> loop.register(pipe.source(), SelectionKey.OP_READ, reading(key -> true)));
            Await.until(() -> ticks.get() >= 3, Duration.ofSeconds(10),
                () -> "a registered channel did not start the ticks again: " + ticks.get());
        } finally {
            loop.close();
            pipe.sink().close();
        }
    }

    @Test
    void aLoopDoesNotSpinAfterAReadyKeyThatWasNoTraffic() throws Exception {
        long spinNanos = TimeUnit.MILLISECONDS.toNanos(300);
        IoLoop loop = loop("polylink-test-quiet", IdleStrategy.SPIN_THEN_BLOCK, spinNanos,
            held -> IoLoop.NO_TIMERS);
        Pipe pipe = Pipe.open();
        try {
            Thread thread = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("polylink-test-quiet")).findFirst().orElseThrow();
            CountDownLatch beat = new CountDownLatch(1);
            pipe.source().configureBlocking(false);
            loop.execute(() -> loop.register(pipe.source(), SelectionKey.OP_READ, reading(key -> {
                drain(key);
                beat.countDown();
                return false; // a heartbeat
            })));
            Await.until(loop::asleep, Duration.ofSeconds(10), () -> "the loop never stopped spinning");
            pipe.sink().write(ByteBuffer.wrap(new byte[] {1}));
            assertTrue(beat.await(10, TimeUnit.SECONDS), "the loop never read the pipe");
            // Inside the 300 ms a beat must not start spinning.
            double share = ThreadCpu.measure(List.of(thread), Duration.ofMillis(250)).share();
            assertTrue(share < 0.2, "the loop spun after a heartbeat: " + share * 100 + "% of a core");
        } finally {
            loop.close();
            pipe.sink().close();
        }
    }

    @Test
    void theTickHearsHowLongAHandlerHeldTheLoopButNotHowLongItSlept() throws Exception {
        AtomicLong mostHeld = new AtomicLong();
        AtomicInteger ticks = new AtomicInteger();
        long tenMillis = TimeUnit.MILLISECONDS.toNanos(10);
        IoLoop loop = loop("polylink-test-held", IdleStrategy.BLOCK, 0, held -> {
            mostHeld.accumulateAndGet(held, Math::max);
            ticks.incrementAndGet();
            return tenMillis;
        });
        Pipe pipe = Pipe.open();
        try {
            CountDownLatch handled = new CountDownLatch(1);
            pipe.source().configureBlocking(false);
            loop.execute(() -> loop.register(pipe.source(), SelectionKey.OP_READ, reading(key -> {
                drain(key);
                try {
                    new CountDownLatch(1).await(200, TimeUnit.MILLISECONDS); // a slow inline handler
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                }
                handled.countDown();
                return true;
            })));
            Await.until(() -> ticks.get() > 20, Duration.ofSeconds(10), () -> "the loop ticked " + ticks + " times");
            // Not 0: a turn preempted or paused for more than 10 ms counts too, rightly.
            assertTrue(mostHeld.get() < TimeUnit.MILLISECONDS.toNanos(100),
                "a loop sleeping between ticks was held " + TimeUnit.NANOSECONDS.toMillis(mostHeld.get()) + " ms");
            pipe.sink().write(ByteBuffer.wrap(new byte[] {1}));
            assertTrue(handled.await(10, TimeUnit.SECONDS), "the loop never read the pipe");
            int after = ticks.get();
            Await.until(() -> ticks.get() > after, Duration.ofSeconds(10), () -> "no tick after the handler");
            long heldMillis = TimeUnit.NANOSECONDS.toMillis(mostHeld.get());
            assertTrue(heldMillis >= 190, "the handler held the loop 200 ms, the tick heard " + heldMillis + " ms");
        } finally {
            loop.close();
            pipe.sink().close();
        }
    }

    @Test
    void theSendingEndOfABulkStreamBlocksAfterAShortSpin() throws Exception {
        try (OneChannel channel = new OneChannel(true)) {
            channel.readOneByte();
            Await.until(channel.loop::asleep, Duration.ofSeconds(5),
                () -> "the loop spun on for its full 10 s, although all it reads is a bulk sender's acknowledgements");
        }
    }

    @Test
    void aChannelNotSendingInBulkKeepsTheFullSpin() throws Exception {
        try (OneChannel channel = new OneChannel(false)) {
            channel.readOneByte();
            channel.assertStillSpinning("its channel does not send in bulk");
        }
    }

    @Test
    void aFrameQueuedForTheLoopKeepsTheFullSpin() throws Exception {
        try (OneChannel channel = new OneChannel(true)) {
            channel.loop.queued(System.nanoTime());
            channel.readOneByte();
            channel.assertStillSpinning("a connection had just queued a frame for it to write");
        }
    }

    /** Idle, a spinning loop asks its last channel whether it sends in bulk, and yields each time it does. */
    @Test
    void spinYieldsBetweenPollsOnlyAtTheSendingEndOfABulkStream() throws Exception {
        try (OneChannel bulk = new OneChannel(IdleStrategy.SPIN, true);
             OneChannel other = new OneChannel(IdleStrategy.SPIN, false)) {
            bulk.readOneByte();
            other.readOneByte();
            Await.until(() -> bulk.handler.askedIfBulk.get() > 1000, Duration.ofSeconds(10),
                () -> "the bulk sender's spinning loop yielded " + bulk.handler.askedIfBulk.get() + " times");
            Await.until(() -> other.handler.askedIfBulk.get() > 0, Duration.ofSeconds(10),
                () -> "a spinning loop never asked whether its channel sends in bulk before yielding");
            assertFalse(bulk.loop.asleep(), "spin blocked");
        }
    }

    /** A loop that spins 10 s after work, reading one pipe. */
    private static final class OneChannel implements AutoCloseable {
        final IoLoop loop;
        private final Pipe pipe = Pipe.open();
        final Counting handler;

        OneChannel(boolean sendsInBulk) throws IOException {
            this(IdleStrategy.SPIN_THEN_BLOCK, sendsInBulk);
        }

        OneChannel(IdleStrategy idle, boolean sendsInBulk) throws IOException {
            loop = loop("polylink-test-spin", idle, TimeUnit.SECONDS.toNanos(10), held -> IoLoop.NO_TIMERS);
            handler = new Counting(sendsInBulk);
            pipe.source().configureBlocking(false);
            loop.execute(() -> loop.register(pipe.source(), SelectionKey.OP_READ, handler));
        }

        void readOneByte() throws IOException {
            pipe.sink().write(ByteBuffer.wrap(new byte[] {1}));
            Await.until(() -> handler.reads.get() == 1, Duration.ofSeconds(10), () -> "the loop never read the byte");
        }

        /** Well inside the 10 s spin after the read, the loop must not have blocked. */
        void assertStillSpinning(String why) throws InterruptedException {
            new CountDownLatch(1).await(300, TimeUnit.MILLISECONDS);
            assertFalse(loop.asleep(), "the loop blocked within 300 ms of its 10 s spin although " + why);
        }

        @Override
        public void close() throws IOException {
            loop.close();
            pipe.sink().close();
        }
    }
}
