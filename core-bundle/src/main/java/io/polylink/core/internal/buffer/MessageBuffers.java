package io.polylink.core.internal.buffer;

/**
 * Where a context's message buffers come from, and what they share: the bound on a message, the
 * pool of stores large buffers move into, and the way startpoints are written into messages and
 * read from them. Called on any thread.
 */
public final class MessageBuffers {

    final int maxMessageSize;
    final StorePool stores;
    final CarriedStartpoints startpoints;

    /**
     * @param maxMessageSize the largest message a buffer may hold
     * @param stores where buffers sent more than once keep their bytes
     * @param startpoints how startpoints travel in messages
     */
    public MessageBuffers(int maxMessageSize, StorePool stores, CarriedStartpoints startpoints) {
        this.maxMessageSize = maxMessageSize;
        this.stores = stores;
        this.startpoints = startpoints;
    }

    /**
     * @return a writable buffer for the application
     * @throws IllegalArgumentException if the capacity is negative or beyond the bound
     */
    public MessageBufferImpl allocate(int initialCapacity) {
        if (initialCapacity < 0 || initialCapacity > maxMessageSize) {
            throw new IllegalArgumentException("buffer capacity " + initialCapacity + " is outside 0.."
                + maxMessageSize);
        }
        return new MessageBufferImpl(this, initialCapacity);
    }

    /**
     * @return a buffer that {@linkplain MessageBufferImpl#wrap wraps} each received payload in turn,
     *     for one receiving thread
     */
    public MessageBufferImpl reader() {
        return new MessageBufferImpl(this, 0);
    }
}
