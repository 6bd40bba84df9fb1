package io.polylink.bench.internal.pingpong;

import io.polylink.Context;
import io.polylink.Delivery;
import io.polylink.Endpoint;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * multi's competing traffic: a ping-pong over tcp between the same two contexts as the measured
 * shm link, run by a thread of its own from start to close as fast as replies come back. Its
 * pings go to the server's endpoint on a startpoint pinned to tcp; the server answers on a
 * startpoint to this endpoint that it pins to tcp too.
 */
final class BackgroundPingPong implements AutoCloseable {

    /** Each ping and reply: a mid-sized RSR, so the tcp path does real work per message. */
    static final int SIZE = 1024;

    private final Endpoint endpoint;
    private final Thread thread;
    /** Made by the waiting thread (a signal unparks the thread that made it); null until then. */
    private volatile ReplySignal signal;
    private volatile boolean running = true;
    private volatile long roundTrips;
    private volatile RuntimeException failure;
    private final long startNanos = System.nanoTime();

    private BackgroundPingPong(Context context, String serverText) {
        Startpoint server = context.startpoint(serverText).pin("tcp");
        endpoint = context.createEndpoint().register(PolylinkPeers.BACKGROUND_PING, Delivery.INLINE, (e, m) -> {
            ReplySignal r = signal;
            if (r != null) {
                r.signal();
            }
        });
        server.send(PolylinkPeers.BACKGROUND_SETUP, context.allocateBuffer(64).putStartpoint(endpoint.startpoint()));
        MessageBuffer ping = context.allocateBuffer(SIZE).putRaw(PolylinkPeers.payload(SIZE), 0, SIZE);
        thread = new Thread(() -> run(server, ping), "pingpong-background-tcp");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * @param context the client's context, with tcp installed
     * @param serverText the server endpoint's startpoint
     * @return the ping-pong, running
     */
    static BackgroundPingPong start(Context context, String serverText) {
        return new BackgroundPingPong(context, serverText);
    }

    private void run(Startpoint server, MessageBuffer ping) {
        ReplySignal signal = new ReplySignal(ReplySignal.PARK);
        this.signal = signal;
        try {
            while (running) {
                long before = signal.count();
                server.send(PolylinkPeers.BACKGROUND_PING, ping);
                signal.awaitPast(before, "background tcp reply");
                roundTrips++;
            }
        } catch (RuntimeException e) {
            if (running) {
                failure = e;
            }
        }
    }

    /**
     * Stops the ping-pong and reports its rate on stderr.
     *
     * @throws IllegalStateException if it failed while running, or did not stop
     */
    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(TimeUnit.SECONDS.toMillis(35));
        endpoint.close();
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        System.err.printf(Locale.ROOT, "background tcp ping-pong: %d round trips of %d B in %.1f s (%.0f/s)%n",
            roundTrips, SIZE, seconds, roundTrips / seconds);
        if (thread.isAlive()) {
            throw new IllegalStateException("the background tcp ping-pong did not stop");
        }
        if (failure != null) {
            throw new IllegalStateException("the background tcp ping-pong failed: " + failure.getMessage(), failure);
        }
        if (roundTrips == 0) {
            throw new IllegalStateException("the background tcp ping-pong made no round trip");
        }
    }
}
