package io.polylink.bench.internal.pingpong;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.FragmentAssembler;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.logbuffer.FragmentHandler;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The aeron-ipc server: an embedded media driver in a temporary directory (deleted on close), and
 * one thread busy-spinning on the ping subscription that offers each ping back on the reply
 * publication as received. Its address is the driver's directory.
 *
 * <p>The driver runs one shared thread with Aeron's backoff idle strategy rather than a busy
 * spin: IPC data goes from publication to subscription through the shared log buffers without
 * the driver (its conductor only moves the publisher's flow-control limit), and on two cores a
 * third spinning thread would take a core from the two that carry the messages.
 */
final class AeronIpcServer implements PingPongServer {

    private final TempDirectory directory;
    private final MediaDriver driver;
    private final Aeron aeron;
    private final Subscription pings;
    private final ExclusivePublication replies;
    private final Thread thread;
    private volatile boolean running = true;

    AeronIpcServer() throws IOException {
        directory = TempDirectory.create("polylink-bench-aeron-");
        MediaDriver d = null;
        Aeron a = null;
        try {
            d = MediaDriver.launch(new MediaDriver.Context()
                .aeronDirectoryName(directory.path().resolve("driver").toString())
                .threadingMode(ThreadingMode.SHARED)
                .sharedIdleStrategy(new BackoffIdleStrategy())
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true));
            a = AeronPeers.connect(d.aeronDirectoryName());
            pings = a.addSubscription(AeronPeers.CHANNEL, AeronPeers.PING_STREAM);
            replies = a.addExclusivePublication(AeronPeers.CHANNEL, AeronPeers.PONG_STREAM);
        } catch (RuntimeException e) {
            CloseHelper.quietCloseAll(a, d);
            directory.close();
            throw e;
        }
        driver = d;
        aeron = a;
        thread = new Thread(this::serve, "pingpong-aeron-ipc-server");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public String address() {
        return driver.aeronDirectoryName();
    }

    private void serve() {
        IdleStrategy idle = AeronPeers.spinWhileBusy();
        IdleStrategy offerIdle = AeronPeers.spin();
        UnsafeBuffer ack = new UnsafeBuffer(ByteBuffer.allocateDirect(AeronPeers.PAYLOAD + Long.BYTES));
        long[] streamed = {0};
        FragmentHandler handler = (DirectBuffer buffer, int offset, int length, io.aeron.logbuffer.Header header) -> {
            int op = buffer.getInt(offset + AeronPeers.OP);
            switch (op) {
                case Frames.PING -> AeronPeers.offer(replies, buffer, offset, length, offerIdle);
                case Frames.STREAM -> streamed[0]++;
                case Frames.STREAM_END -> {
                    ack.putInt(AeronPeers.OP, Frames.STREAM_END);
                    ack.putLong(AeronPeers.PAYLOAD, streamed[0]);
                    AeronPeers.offer(replies, ack, 0, ack.capacity(), offerIdle);
                    streamed[0] = 0;
                }
                default -> throw new IllegalStateException("unknown op " + op);
            }
        };
        FragmentAssembler assembler = new FragmentAssembler(handler);
        try {
            while (running) {
                idle.idle(pings.poll(assembler, AeronPeers.FRAGMENTS));
            }
        } catch (RuntimeException e) {
            if (running) {
                System.err.println("aeron-ipc server failed: " + e);
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        try {
            thread.join(5_000);
        } finally {
            CloseHelper.quietCloseAll(replies, pings, aeron, driver);
            directory.close();
        }
    }
}
