package io.polylink.demo.internal;

import io.polylink.Context;
import io.polylink.Endpoint;
import io.polylink.Handler;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;

/**
 * Answers a PING with a PONG of the same payload, inline, on the thread that received it. Each
 * answering thread keeps its own reply buffer and scratch array, so a round trip of the demo's
 * table costs the link, not two allocations of the payload's size; a buffer may be filled again
 * as soon as its send returns.
 */
final class Echo implements Handler {

    private final Context context;
    private final ThreadLocal<Reply> replies = new ThreadLocal<>();

    Echo(Context context) {
        this.context = context;
    }

    /** One thread's reply buffer and the array its payload passes through. */
    private static final class Reply {
        final MessageBuffer buffer;
        final byte[] payload;

        Reply(MessageBuffer buffer, int capacity) {
            this.buffer = buffer;
            this.payload = new byte[capacity];
        }
    }

    @Override
    public void handle(Endpoint endpoint, MessageBuffer ping) {
        Startpoint replyTo = ping.getStartpoint();
        int size = ping.remaining();
        Reply reply = replies.get();
        if (reply == null || reply.payload.length < size) {
            reply = new Reply(context.allocateBuffer(size), size);
            replies.set(reply);
        }
        ping.getRaw(reply.payload, 0, size);
        replyTo.send(DemoProtocol.PONG, reply.buffer.clear().putRaw(reply.payload, 0, size));
    }
}
