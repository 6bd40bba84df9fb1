package io.polylink.core.internal.buffer;

/** What tests of other parts read of a context's store pool. */
public final class StoreProbe {

    /** Bytes the pool keeps once idle. */
    public static final long IDLE_BYTES = StorePool.IDLE_BYTES;

    private StoreProbe() {}

    /** @return bytes of stores in the pool, waiting to be taken again */
    public static long pooledBytes(MessageBuffers buffers) {
        return buffers.stores.pooledBytes();
    }
}
