package io.polylink.bench.internal.pingpong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The raw-mailbox floor must move messages intact, one at a time, or its figures mean nothing. */
class RawMailboxTest {

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void pingsComeBackIntactAndAStreamIsCountedThroughOneMappedFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("mailbox");
        RawMailbox server = RawMailbox.create(file);
        RawMailbox client = RawMailbox.open(file); // a second mapping of the file, as in another process
        CompletableFuture<Long> serving = CompletableFuture.supplyAsync(() -> {
            RawMailbox.Slot in = server.toServer();
            RawMailbox.Slot out = server.toClient();
            ByteBuffer sink = ByteBuffer.allocate(PingPongOptions.MAX_SIZE);
            long streamed = 0;
            while (true) {
                switch (in.await()) {
                    case Frames.PING -> in.answer(out);
                    case Frames.STREAM -> {
                        streamed++;
                        in.readInto(sink.clear());
                    }
                    default -> {
                        in.consumed();
                        return streamed;
                    }
                }
            }
        });
        SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < 200; i++) {
            byte[] ping = new byte[random.nextInt(i % 10 == 0 ? 70_000 : 300)];
            random.nextBytes(ping);
            client.toServer().write(Frames.PING, ByteBuffer.wrap(ping));
            assertEquals(Frames.PING, client.toClient().await());
            assertEquals(ping.length, client.toClient().length());
            ByteBuffer reply = ByteBuffer.allocate(ping.length);
            client.toClient().readInto(reply);
            assertArrayEquals(ping, reply.array(), "ping " + i);
        }
        for (int i = 0; i < 1000; i++) {
            client.toServer().write(Frames.STREAM, ByteBuffer.allocate(64));
        }
        client.toServer().write(Frames.STREAM_END, ByteBuffer.allocate(0));
        assertEquals(1000L, serving.get(20, TimeUnit.SECONDS));
        assertEquals(2L * (136 + PingPongOptions.MAX_SIZE), Files.size(file));
    }
}
