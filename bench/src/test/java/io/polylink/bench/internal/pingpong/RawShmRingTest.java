package io.polylink.bench.internal.pingpong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The raw-shm floor must move bytes intact, or its figures mean nothing. */
class RawShmRingTest {

    private static RawShmRing ring(int capacity) {
        return new RawShmRing(ByteBuffer.allocateDirect(RawShmRing.regionBytes(capacity)));
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void recordsLargerThanTheRingArriveIntactAcrossWrapsWhileTheConsumerRuns() throws Exception {
        RawShmRing producer = ring(64);
        // The consumer's view of the same memory: a second object over the same region, as in another process.
        RawShmRing consumer = new RawShmRing(producerRegion(producer));
        byte[][] records = new byte[50][];
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < records.length; i++) {
            records[i] = new byte[1 + random.nextInt(300)];
            random.nextBytes(records[i]);
        }
        CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> {
            ByteBuffer header = ByteBuffer.allocate(Frames.HEADER);
            for (byte[] expected : records) {
                consumer.readHeader(header);
                assertEquals(expected.length, header.getInt(0));
                ByteBuffer body = ByteBuffer.allocate(expected.length);
                consumer.read(body);
                assertArrayEquals(expected, body.array());
            }
        });
        ByteBuffer header = ByteBuffer.allocate(Frames.HEADER);
        for (byte[] r : records) {
            producer.writeRecord(header.clear().putInt(r.length).putInt(Frames.PING).flip(), ByteBuffer.wrap(r));
        }
        reader.get(20, TimeUnit.SECONDS);
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void transferMovesBytesFromOneRingIntoTheOther() throws Exception {
        RawShmRing in = ring(128);
        RawShmRing out = ring(256);
        RawShmRing inProducer = new RawShmRing(producerRegion(in));
        RawShmRing outConsumer = new RawShmRing(producerRegion(out));
        byte[] data = new byte[100];
        new SplittableRandom(3).nextBytes(data);
        inProducer.writeRecord(ByteBuffer.allocate(0), ByteBuffer.wrap(data));
        in.transferTo(out, data.length);
        ByteBuffer back = ByteBuffer.allocate(data.length);
        outConsumer.read(back);
        assertArrayEquals(data, back.array());
    }

    /** @return the region {@code ring} lives in, for a second side to open */
    private static ByteBuffer producerRegion(RawShmRing ring) {
        return ring.region();
    }
}
