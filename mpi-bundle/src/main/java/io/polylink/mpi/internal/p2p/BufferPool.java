package io.polylink.mpi.internal.p2p;

import io.polylink.Context;
import io.polylink.MessageBuffer;

/**
 * Message buffers for sending, reused so small messages allocate none. A buffer is taken, filled,
 * sent and given back; the context copies or keeps what it sends, so it may be refilled at once.
 */
final class BufferPool {

    private final Context context;
    private final int capacity;
    private final MessageBuffer[] free;
    private int size;

    BufferPool(Context context, int capacity, int keep) {
        this.context = context;
        this.capacity = capacity;
        this.free = new MessageBuffer[keep];
    }

    MessageBuffer take() {
        synchronized (this) {
            if (size > 0) {
                MessageBuffer m = free[--size];
                free[size] = null;
                return m;
            }
        }
        return context.allocateBuffer(capacity);
    }

    void give(MessageBuffer m) {
        m.clear();
        synchronized (this) {
            if (size < free.length) {
                free[size++] = m;
            }
        }
    }
}
