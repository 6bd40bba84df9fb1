package io.polylink.bench.internal.pingpong;

import io.polylink.Context;
import io.polylink.Delivery;
import io.polylink.Endpoint;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import io.polylink.core.internal.EmbeddedContext;
import java.io.IOException;

/**
 * The polylink client: the measuring thread sends an RSR (written to the socket from this thread)
 * and waits, as {@link ReplySignal} says, until the inline reply handler has run on the tcp I/O
 * thread.
 */
final class PolylinkClient implements PingPongClient {

    private final EmbeddedContext embedded;
    private final Context context;
    private final Endpoint endpoint;
    private final Startpoint server;
    private final MessageBuffer end;
    private final ReplySignal replies;
    private final ReplySignal acks;
    /** Written by the I/O thread only. */
    private volatile long acknowledged;
    private volatile int wrongSize = -1;
    private MessageBuffer ping;
    private int size;

    /**
     * @param idle the tcp method's idle strategy
     * @param wait how the measuring thread waits for replies
     * @param serverText the server endpoint's startpoint
     */
    PolylinkClient(String idle, String wait, String serverText) {
        replies = new ReplySignal(wait);
        acks = new ReplySignal(wait);
        embedded = PolylinkPeers.open(idle);
        context = embedded.context();
        endpoint = context.createEndpoint()
            .register(PolylinkPeers.PING, Delivery.INLINE, (e, m) -> {
                if (m.length() != size) {
                    wrongSize = m.length();
                }
                replies.signal();
            })
            .register(PolylinkPeers.STREAM_END, Delivery.INLINE, (e, m) -> {
                acknowledged = m.getLong();
                acks.signal();
            });
        server = context.startpoint(serverText);
        server.send(PolylinkPeers.SETUP, context.allocateBuffer(64).putStartpoint(endpoint.startpoint()));
        end = context.allocateBuffer(0);
    }

    @Override
    public void size(int size) {
        this.size = size;
        ping = context.allocateBuffer(size).putRaw(new byte[size], 0, size);
    }

    @Override
    public void roundTrip() throws IOException {
        long before = replies.count();
        server.send(PolylinkPeers.PING, ping);
        replies.awaitPast(before, "polylink reply");
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
    public void close() {
        endpoint.close();
        embedded.close();
    }
}
