package io.polylink.demo.internal;

import io.polylink.Context;
import io.polylink.Endpoint;
import io.polylink.Handler;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;

/**
 * Answers a PING with a PONG of the same payload, inline on the thread that received it: no hand-off
 * to the context's executor, and no buffer allocated per answer. Each receiving thread keeps its
 * own scratch space, since an inline handler runs on whichever thread received the RSR (a method's
 * poller, or a caller of {@link Context#progress}).
 */
final class PingAnswer implements Handler {

    private final Context context;
    private final ThreadLocal<Scratch> scratch;

    PingAnswer(Context context) {
        this.context = context;
        this.scratch = ThreadLocal.withInitial(Scratch::new);
    }

    /** A thread's payload copy and answer buffer, grown to the largest PING it answered. */
    private final class Scratch {
        private byte[] payload = new byte[0];
        private MessageBuffer answer = context.allocateBuffer(64);
    }

    @Override
    public void handle(Endpoint endpoint, MessageBuffer ping) {
        Startpoint replyTo = ping.getStartpoint();
        int size = ping.remaining();
        Scratch s = scratch.get();
        if (s.payload.length < size) {
            s.payload = new byte[size];
        }
        ping.getRaw(s.payload, 0, size);
        replyTo.send(DemoProtocol.PONG, s.answer.clear().putRaw(s.payload, 0, size));
    }
}
