package io.polylink.core.internal.endpoint;

import io.polylink.Context;
import io.polylink.Endpoint;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;

/**
 * Every context's first endpoint, with services any peer can use without installing anything:
 * what {@code ping}, the demo and cross-process tests talk to. Its id is the same in every
 * context ({@link #ID}).
 *
 * <ul>
 *   <li>{@link #ECHO}: {@code [replyTo: startpoint][handler: int][payload: rest]} — sends the
 *       payload to {@code replyTo}'s handler.
 *   <li>{@link #RELAY}: {@code [next: startpoint][handler: int][carried: startpoint][rest]} —
 *       sends {@code [carried][rest]} to {@code next}'s handler: a startpoint passed on through
 *       this context.
 * </ul>
 */
public final class SystemEndpoint {

    public static final int ECHO = 0;
    public static final int RELAY = 1;
    /** Slot 1, generation 1: the first endpoint a context creates. */
    public static final int ID = 1 << EndpointTable.SLOT_BITS | 1;

    private SystemEndpoint() {}

    public static Endpoint create(Context context) {
        Endpoint endpoint = context.createEndpoint();
        if (endpoint.id() != ID) {
            throw new IllegalStateException("the system endpoint must be the context's first endpoint");
        }
        return endpoint
            .register(ECHO, (e, m) -> {
                Startpoint replyTo = m.getStartpoint();
                int handler = m.getInt();
                replyTo.send(handler, rest(context, m, context.allocateBuffer(m.remaining())));
            })
            .register(RELAY, (e, m) -> {
                Startpoint next = m.getStartpoint();
                int handler = m.getInt();
                Startpoint carried = m.getStartpoint();
                MessageBuffer out = context.allocateBuffer(m.remaining() + 64).putStartpoint(carried);
                next.send(handler, rest(context, m, out));
            });
    }

    private static MessageBuffer rest(Context context, MessageBuffer from, MessageBuffer to) {
        byte[] bytes = new byte[from.remaining()];
        from.getRaw(bytes, 0, bytes.length);
        return to.putRaw(bytes, 0, bytes.length);
    }
}
