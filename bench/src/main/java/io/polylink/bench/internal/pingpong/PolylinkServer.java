package io.polylink.bench.internal.pingpong;

import io.polylink.Context;
import io.polylink.Delivery;
import io.polylink.Endpoint;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import java.io.IOException;

/**
 * The polylink server: an endpoint whose inline handlers run on the method's I/O thread (the tcp
 * selector thread, the shm poller). A
 * ping is answered with a buffer of the same size kept for that size: the received message is
 * valid only during the handler and cannot be sent back as it is, and refilling a buffer per
 * ping would add a copy the other peers do not make. For multi, a second startpoint to the client,
 * pinned to tcp, answers the client's background ping-pong on the tcp I/O thread meanwhile.
 */
final class PolylinkServer implements PingPongServer {

    private final PolylinkNode node;
    private final Context context;
    private final Endpoint endpoint;
    private final MessageBuffer ack;
    /** All below only on the I/O thread, where every handler runs. */
    private Startpoint client;
    private MessageBuffer reply;
    private long streamed;
    /** The background link's, only on the tcp I/O thread. */
    private Startpoint background;
    private MessageBuffer backgroundReply;

    PolylinkServer(String impl, String idle) throws IOException {
        node = PolylinkNode.open(impl, idle);
        context = node.context();
        ack = context.allocateBuffer(Long.BYTES);
        endpoint = context.createEndpoint()
            .register(PolylinkPeers.SETUP, Delivery.INLINE, (e, m) -> {
                client = m.getStartpoint();
                client.explain().forEach(x -> System.err.println("polylink server: " + x));
            })
            .register(PolylinkPeers.PING, Delivery.INLINE, (e, m) -> client.send(PolylinkPeers.PING, reply(m.length())))
            .register(PolylinkPeers.STREAM, Delivery.INLINE, (e, m) -> streamed++)
            .register(PolylinkPeers.STREAM_END, Delivery.INLINE, (e, m) -> {
                client.send(PolylinkPeers.STREAM_END, ack.clear().putLong(streamed));
                streamed = 0;
            })
            .register(PolylinkPeers.BACKGROUND_SETUP, Delivery.INLINE, (e, m) -> background = m.getStartpoint().pin("tcp"))
            .register(PolylinkPeers.BACKGROUND_PING, Delivery.INLINE, (e, m) -> {
                if (backgroundReply == null || backgroundReply.length() != m.length()) {
                    backgroundReply = filled(m.length());
                }
                background.send(PolylinkPeers.BACKGROUND_PING, backgroundReply);
            });
    }

    private MessageBuffer reply(int length) {
        if (reply == null || reply.length() != length) {
            reply = filled(length);
        }
        return reply;
    }

    private MessageBuffer filled(int length) {
        return context.allocateBuffer(length).putRaw(PolylinkPeers.payload(length), 0, length);
    }

    @Override
    public String address() {
        return endpoint.startpoint().toText();
    }

    @Override
    public void close() {
        try {
            endpoint.close();
        } finally {
            node.close();
        }
    }
}
