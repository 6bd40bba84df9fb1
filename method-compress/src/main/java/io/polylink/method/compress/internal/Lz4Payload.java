package io.polylink.method.compress.internal;

/**
 * Layout of a payload as the lz4 transform sends it. Network byte order.
 *
 * <pre>
 *   stored       0        1
 *                +--------+------------------------ ... -+
 *                | flag 0 | the input, unchanged          |
 *                +--------+------------------------ ... -+
 *
 *   compressed   0        1                 5
 *                +--------+-----------------+------ ... -+
 *                | flag 1 | original length | lz4 block   |
 *                +--------+-----------------+------ ... -+
 * </pre>
 *
 * <p>The original length is an unsigned 32-bit count of the bytes the block decompresses to. The
 * receiver asks its bounded buffer source for exactly that many bytes before decompressing, so a
 * small frame cannot make it allocate more than the context accepts, and a block that yields
 * more or fewer bytes than declared is refused.
 */
final class Lz4Payload {

    static final int FLAG_OFFSET = 0;
    static final byte STORED = 0;
    static final byte COMPRESSED = 1;
    /** Where a stored payload's bytes begin; also the whole overhead of storing. */
    static final int STORED_DATA_OFFSET = 1;
    static final int LENGTH_OFFSET = 1;
    static final int BLOCK_OFFSET = 5;

    private Lz4Payload() {}
}
