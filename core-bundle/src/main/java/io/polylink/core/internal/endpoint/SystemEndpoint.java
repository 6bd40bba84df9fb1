package io.polylink.core.internal.endpoint;

import io.polylink.Context;
import io.polylink.ContextId;
import io.polylink.Endpoint;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import io.polylink.core.internal.observe.Problems;
import java.util.function.Predicate;

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
 *
 * <p>Both send only to startpoints whose contexts the context may reach on a peer's word (by
 * default those it has a connection with, such as the asker's own): anyone who can reach the
 * endpoint writes the startpoint, and with it the addresses the context would dial.
 */
public final class SystemEndpoint {

    public static final int ECHO = 0;
    public static final int RELAY = 1;
    /** Slot 1, generation 1: the first endpoint a context creates. */
    public static final int ID = 1 << EndpointTable.SLOT_BITS | 1;

    private SystemEndpoint() {}

    /**
     * @param reachable whether echo and relay may send to a context of that id; the context's own
     *     id always may
     * @param problems where a refused echo or relay is reported
     */
    public static Endpoint create(Context context, Predicate<ContextId> reachable, Problems problems) {
        Endpoint endpoint = context.createEndpoint();
        if (endpoint.id() != ID) {
            throw new IllegalStateException("the system endpoint must be the context's first endpoint");
        }
        Targets targets = new Targets(context.id(), reachable, problems);
        return endpoint
            .register(ECHO, (e, m) -> {
                Startpoint replyTo = m.getStartpoint();
                int handler = m.getInt();
                if (targets.allowed("echo", replyTo)) {
                    replyTo.send(handler, rest(m, context.allocateBuffer(m.remaining())));
                }
            })
            .register(RELAY, (e, m) -> {
                Startpoint next = m.getStartpoint();
                int handler = m.getInt();
                Startpoint carried = m.getStartpoint();
                if (targets.allowed("relay", next)) {
                    MessageBuffer out = context.allocateBuffer(m.remaining() + 64).putStartpoint(carried);
                    next.send(handler, rest(m, out));
                }
            });
    }

    private static MessageBuffer rest(MessageBuffer from, MessageBuffer to) {
        byte[] bytes = new byte[from.remaining()];
        from.getRaw(bytes, 0, bytes.length);
        return to.putRaw(bytes, 0, bytes.length);
    }

    /** Which startpoints echo and relay send to. */
    private record Targets(ContextId self, Predicate<ContextId> reachable, Problems problems) {

        /** @return whether every target of {@code to} may be sent to; if not, reports why */
        boolean allowed(String service, Startpoint to) {
            for (Startpoint.Target t : to.targets()) {
                if (!t.context().equals(self) && !reachable.test(t.context())) {
                    problems.error("system endpoint refused", service + " to " + t.context() + " refused: this "
                        + "context has no connection with it, and would have to dial an address the asker wrote; "
                        + "set systemTargets=any in io.polylink.core to send to any startpoint");
                    return false;
                }
            }
            return true;
        }
    }
}
