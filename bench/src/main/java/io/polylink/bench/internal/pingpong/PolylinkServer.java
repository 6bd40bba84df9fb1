package io.polylink.bench.internal.pingpong;

import io.polylink.Context;
import io.polylink.Delivery;
import io.polylink.Endpoint;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import io.polylink.core.internal.EmbeddedContext;

/**
 * The polylink server: an endpoint whose inline handlers run on the tcp method's I/O thread. A
 * ping is answered with a buffer of the same size kept for that size: the received message is
 * valid only during the handler and cannot be sent back as it is, and refilling a buffer per
 * ping would add a copy the other peers do not make.
 */
final class PolylinkServer implements PingPongServer {

    private final EmbeddedContext embedded;
    private final Context context;
    private final Endpoint endpoint;
    private final MessageBuffer ack;
    /** All below only on the I/O thread, where every handler runs. */
    private Startpoint client;
    private MessageBuffer reply;
    private long streamed;

    PolylinkServer(String idle) {
        embedded = PolylinkPeers.open(idle);
        context = embedded.context();
        ack = context.allocateBuffer(Long.BYTES);
        endpoint = context.createEndpoint()
            .register(PolylinkPeers.SETUP, Delivery.INLINE, (e, m) -> client = m.getStartpoint())
            .register(PolylinkPeers.PING, Delivery.INLINE, (e, m) -> client.send(PolylinkPeers.PING, reply(m.length())))
            .register(PolylinkPeers.STREAM, Delivery.INLINE, (e, m) -> streamed++)
            .register(PolylinkPeers.STREAM_END, Delivery.INLINE, (e, m) -> {
                client.send(PolylinkPeers.STREAM_END, ack.clear().putLong(streamed));
                streamed = 0;
            });
    }

    private MessageBuffer reply(int length) {
        if (reply == null || reply.length() != length) {
            reply = context.allocateBuffer(length).putRaw(new byte[length], 0, length);
        }
        return reply;
    }

    @Override
    public String address() {
        return endpoint.startpoint().toText();
    }

    @Override
    public void close() {
        endpoint.close();
        embedded.close();
    }
}
