package io.polylink.method.tcp.internal.connection;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.nio.channels.GatheringByteChannel;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SendQueueTest {

    /** Takes at most {@code budget} bytes per write, as a socket whose buffer is nearly full. */
    private static final class TrickleChannel implements GatheringByteChannel {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        int budget;
        int calls;

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) {
            calls++;
            long total = 0;
            int left = budget;
            for (int i = offset; i < offset + length && left > 0; i++) {
                int n = Math.min(left, srcs[i].remaining());
                byte[] bytes = new byte[n];
                srcs[i].get(bytes);
                out.writeBytes(bytes);
                left -= n;
                total += n;
            }
            return total;
        }

        @Override
        public long write(ByteBuffer[] srcs) {
            return write(srcs, 0, srcs.length);
        }

        @Override
        public int write(ByteBuffer src) {
            return (int) write(new ByteBuffer[] {src});
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
        }
    }

    @Test
    void bytesLeaveInTheOrderTheyCameAcrossWrapsAndGrowth() throws Exception {
        Random random = new Random(42);
        SendQueue queue = new SendQueue();
        TrickleChannel channel = new TrickleChannel();
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        for (int round = 0; round < 2000; round++) {
            byte[] chunk = new byte[random.nextInt(round % 100 == 99 ? 200_000 : 9000)];
            random.nextBytes(chunk);
            expected.writeBytes(chunk);
            ByteBuffer src = ByteBuffer.wrap(chunk);
            queue.add(src);
            assertEquals(0, src.remaining(), "add consumes its source");
            channel.budget = random.nextInt(12_000);
            queue.writeTo(channel);
        }
        channel.budget = Integer.MAX_VALUE;
        queue.writeTo(channel);
        assertTrue(queue.isEmpty());
        assertArrayEquals(expected.toByteArray(), channel.out.toByteArray());
    }

    @Test
    void bytesPutFirstLeaveAheadOfWhatWasQueuedAcrossWrapsAndGrowth() throws Exception {
        Random random = new Random(7);
        SendQueue queue = new SendQueue();
        TrickleChannel channel = new TrickleChannel();
        ArrayDeque<Byte> model = new ArrayDeque<>();
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        for (int round = 0; round < 2000; round++) {
            byte[] head = new byte[random.nextInt(round % 100 == 99 ? 150_000 : 5000)];
            byte[] tail = new byte[random.nextInt(3000)];
            random.nextBytes(head);
            random.nextBytes(tail);
            if (random.nextBoolean()) {
                ByteBuffer a = ByteBuffer.wrap(head);
                ByteBuffer b = ByteBuffer.wrap(tail);
                queue.addFirst(a, b);
                assertEquals(0, a.remaining() + b.remaining(), "addFirst consumes its sources");
                for (int i = tail.length - 1; i >= 0; i--) {
                    model.addFirst(tail[i]);
                }
                for (int i = head.length - 1; i >= 0; i--) {
                    model.addFirst(head[i]);
                }
            } else {
                queue.add(ByteBuffer.wrap(head));
                for (byte x : head) {
                    model.addLast(x);
                }
            }
            assertEquals(model.size(), queue.size());
            channel.budget = random.nextInt(12_000);
            int before = channel.out.size();
            queue.writeTo(channel);
            for (int i = channel.out.size() - before; i > 0; i--) {
                expected.write(model.pollFirst());
            }
        }
        channel.budget = Integer.MAX_VALUE;
        queue.writeTo(channel);
        model.forEach(expected::write);
        assertTrue(queue.isEmpty());
        assertArrayEquals(expected.toByteArray(), channel.out.toByteArray());
    }

    @Test
    void aWrappedSpanGoesOutInOneGatheringWrite() throws Exception {
        SendQueue queue = new SendQueue();
        TrickleChannel channel = new TrickleChannel();
        int capacity = SendQueue.INITIAL_CAPACITY;
        queue.add(ByteBuffer.allocate(capacity - 10));
        channel.budget = capacity - 20;
        queue.writeTo(channel);
        queue.add(ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}));
        assertEquals(capacity, queue.capacity(), "the wrapped bytes fit without growing");
        channel.budget = Integer.MAX_VALUE;
        channel.calls = 0;
        assertEquals(25, queue.writeTo(channel));
        assertEquals(1, channel.calls);
        assertTrue(queue.isEmpty());
    }

    @Test
    void releasedMemoryComesBackOnTheNextAddButNotWhileBytesWait() throws Exception {
        SendQueue queue = new SendQueue();
        queue.add(ByteBuffer.allocate(100));
        queue.release();
        assertEquals(100, queue.size(), "queued bytes are never dropped by a release");
        queue.clear();
        queue.release();
        assertEquals(0, queue.capacity());
        queue.add(ByteBuffer.allocate(3 * SendQueue.INITIAL_CAPACITY));
        assertEquals(4 * SendQueue.INITIAL_CAPACITY, queue.capacity());
    }
}
