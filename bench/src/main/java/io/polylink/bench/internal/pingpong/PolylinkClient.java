package io.polylink.bench.internal.pingpong;

import io.polylink.Context;
import io.polylink.Delivery;
import io.polylink.Endpoint;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import java.io.IOException;
import org.HdrHistogram.Histogram;

/**
 * The polylink client. Driven by the application thread, it sends an RSR (written to the socket
 * from that thread) and waits, as {@link ReplySignal} says, until the inline reply handler has run
 * on the method's I/O thread, or, waiting by {@code progress}, on the waiting thread itself. Driven by the handler, the inline reply handler sends the next RSR
 * itself. In multi's busy case a {@link BackgroundPingPong} runs over tcp meanwhile.
 */
final class PolylinkClient implements PingPongClient {

    private final PolylinkNode node;
    private final BackgroundPingPong background;
    private final Context context;
    private final Endpoint endpoint;
    private final Startpoint server;
    private final MessageBuffer end;
    private final ReplySignal replies;
    private final ReplySignal acks;
    private final boolean handlerDriven;
    private final ReplySignal batches = new ReplySignal(ReplySignal.PARK);
    /** The round trips the reply handler drives now, or {@code null}. */
    private volatile HandlerBatch batch;
    /** Written by the I/O thread only. */
    private volatile long acknowledged;
    private volatile int wrongSize = -1;
    private MessageBuffer ping;
    private int size;

    /**
     * @param impl a {@code polylink:*} implementation or multi case
     * @param idle the idle strategy, in the tcp method's words
     * @param wait how the measuring thread waits for replies
     * @param handlerDriven whether the reply handler sends the next message
     * @param serverText the server endpoint's startpoint
     */
    PolylinkClient(String impl, String idle, String wait, boolean handlerDriven, String serverText)
            throws IOException {
        this.handlerDriven = handlerDriven;
        node = PolylinkNode.open(impl, idle, serverText);
        context = node.context();
        try {
            replies = new ReplySignal(wait, context::progress);
            acks = new ReplySignal(wait, context::progress);
            server = context.startpoint(serverText);
            // Evidence that the link runs over the intended stack (and not, say, a method picked by mistake).
            server.explain().forEach(x -> System.err.println("polylink client: " + x));
            endpoint = context.createEndpoint()
                .register(PolylinkPeers.PING, Delivery.INLINE, (e, m) -> {
                    if (m.length() != size) {
                        wrongSize = m.length();
                    }
                    HandlerBatch b = batch;
                    if (b == null) {
                        replies.signal();
                    } else if (b.replied()) {
                        server.send(PolylinkPeers.PING, ping);
                    }
                })
                .register(PolylinkPeers.STREAM_END, Delivery.INLINE, (e, m) -> {
                    acknowledged = m.getLong();
                    acks.signal();
                });
            server.send(PolylinkPeers.SETUP, context.allocateBuffer(64).putStartpoint(endpoint.startpoint()));
            end = context.allocateBuffer(0);
            background = impl.equals(Peers.SHM_TCP_BUSY) ? BackgroundPingPong.start(context, serverText) : null;
        } catch (RuntimeException e) {
            node.close();
            throw e;
        }
    }

    @Override
    public void size(int size) {
        this.size = size;
        ping = context.allocateBuffer(size).putRaw(PolylinkPeers.payload(size), 0, size);
    }

    @Override
    public void roundTrips(int count, Histogram into) throws IOException {
        if (count > 0 && handlerDriven) {
            long before = batches.count();
            HandlerBatch b = new HandlerBatch(count, into, batches);
            b.started();
            batch = b;
            server.send(PolylinkPeers.PING, ping);
            batches.awaitPast(before, "polylink replies", Deadline.BATCH_NANOS);
            batch = null;
        } else {
            for (int i = 0; i < count; i++) {
                long start = System.nanoTime();
                long before = replies.count();
                server.send(PolylinkPeers.PING, ping);
                replies.awaitPast(before, "polylink reply");
                ClientLoop.record(into, System.nanoTime() - start);
            }
        }
        if (wrongSize >= 0) {
            throw new IOException("reply of " + wrongSize + " bytes to a " + size + "-byte ping");
        }
    }

    @Override
    public void stream(int messages) {
        long before = acks.count();
        for (int i = 0; i < messages; i++) {
            server.send(PolylinkPeers.STREAM, ping);
        }
        server.send(PolylinkPeers.STREAM_END, end);
        acks.awaitPast(before, "polylink stream acknowledgement");
        if (acknowledged != messages) {
            throw new IllegalStateException("server counted " + acknowledged + " of " + messages
                + " streamed messages");
        }
    }

    @Override
    public void close() throws InterruptedException {
        try {
            if (background != null) {
                background.close();
            }
        } finally {
            try {
                endpoint.close();
            } finally {
                node.close();
            }
        }
    }
}
