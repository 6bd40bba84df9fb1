package io.polylink.core.internal.channel;

import io.polylink.spi.TransformSession;

/**
 * A method stack's transforms as bound to one channel: the id its frames carry and the sessions
 * that encode them, in send order.
 *
 * @param id the stack id, 1 to 255; 0 for no transform and no flow
 * @param transforms the transform names, {@code +}-joined
 * @param sessions the sessions, in send order
 */
public record StackBinding(int id, String transforms, TransformSession[] sessions) {

    static final StackBinding PLAIN = new StackBinding(0, "", new TransformSession[0]);

    /** @return whether every session can encode without waiting for the peer */
    boolean ready() {
        for (TransformSession s : sessions) {
            if (!s.ready()) {
                return false;
            }
        }
        return true;
    }
}
