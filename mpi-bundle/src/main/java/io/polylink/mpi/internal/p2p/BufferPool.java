package io.polylink.mpi.internal.p2p;

import io.polylink.Context;
import io.polylink.MessageBuffer;

/**
 * Message buffers for sending, reused so small messages allocate none. A buffer is taken, filled,
 * sent and given back; the context copies or keeps what it sends, so it may be refilled at once.
 *
 * <p>The thread that made the pool, the rank's own, has a buffer of its own, taken and given back
 * with no lock: a send is done with its buffer before the thread's next one begins. Other threads,
 * and a handler that sends while that buffer is out (it runs inside the send that delivered
 * locally, or inside a receive), take one from the shared list.
 */
final class BufferPool {

    private final Context context;
    private final int capacity;
    private final Thread owner = Thread.currentThread();
    /** The owner's buffer, and whether it is out: the owner's only. */
    private MessageBuffer own;
    private boolean ownOut;
    private final MessageBuffer[] free;
    private int size;

    BufferPool(Context context, int capacity, int keep) {
        this.context = context;
        this.capacity = capacity;
        this.free = new MessageBuffer[keep];
    }

    MessageBuffer take() {
        if (Thread.currentThread() == owner && !ownOut) {
            if (own == null) {
                own = context.allocateBuffer(capacity);
            }
            ownOut = true;
            return own;
        }
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
        if (m == own && Thread.currentThread() == owner) {
            ownOut = false;
            return;
        }
        synchronized (this) {
            if (size < free.length) {
                free[size++] = m;
            }
        }
    }
}
