package io.polylink.method.tcp.internal;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.testkit.Await;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SelectionKey;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class IoLoopTest {

    /** A handler in a conversation without end: the loop may always read it directly, and it always has bytes. */
    private static final class Chatty implements IoHandler {
        final AtomicLong polls = new AtomicLong();

        @Override
        public void ready(SelectionKey key) {
            drain(key);
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

    private static void drain(SelectionKey key) {
        try {
            ((ReadableByteChannel) key.channel()).read(ByteBuffer.allocate(16));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aChannelReadDirectlyLeavesTheSelectorToTheOthers() throws Exception {
        IoLoop loop = new IoLoop("polylink-test-io", IdleStrategy.SPIN, 0, 100, () -> { });
        Pipe talking = Pipe.open();
        Pipe other = Pipe.open();
        try {
            talking.source().configureBlocking(false);
            other.source().configureBlocking(false);
            Chatty chatty = new Chatty();
            CountDownLatch otherRead = new CountDownLatch(1);
            CountDownLatch registered = new CountDownLatch(1);
            loop.execute(() -> {
                loop.register(talking.source(), SelectionKey.OP_READ, chatty);
                loop.register(other.source(), SelectionKey.OP_READ, key -> {
                    drain(key);
                    otherRead.countDown();
                });
                registered.countDown();
            });
            assertTrue(registered.await(10, TimeUnit.SECONDS), "the loop never registered the channels");

            talking.sink().write(ByteBuffer.wrap(new byte[] {1}));
            Await.until(() -> chatty.polls.get() > 1000, Duration.ofSeconds(10),
                () -> "the loop read the talking channel directly only " + chatty.polls.get() + " times");
            other.sink().write(ByteBuffer.wrap(new byte[] {1}));
            assertTrue(otherRead.await(10, TimeUnit.SECONDS),
                "another channel's bytes went unread while the loop read the talking one directly");
        } finally {
            loop.close();
            talking.sink().close();
            other.sink().close();
        }
    }
}
