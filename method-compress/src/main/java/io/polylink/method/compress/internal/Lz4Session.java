package io.polylink.method.compress.internal;

import static io.polylink.method.compress.internal.Lz4Payload.BLOCK_OFFSET;
import static io.polylink.method.compress.internal.Lz4Payload.COMPRESSED;
import static io.polylink.method.compress.internal.Lz4Payload.FLAG_OFFSET;
import static io.polylink.method.compress.internal.Lz4Payload.LENGTH_OFFSET;
import static io.polylink.method.compress.internal.Lz4Payload.STORED;
import static io.polylink.method.compress.internal.Lz4Payload.STORED_DATA_OFFSET;

import io.polylink.MalformedMessageException;
import io.polylink.MessageTooLargeException;
import io.polylink.spi.BufferSource;
import io.polylink.spi.TransformSession;
import java.nio.ByteBuffer;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * lz4 for one connection, in the layout of {@link Lz4Payload}. It keeps no state between frames
 * (each payload is one independent block), so encoding and decoding need no locks.
 */
final class Lz4Session implements TransformSession {

    private final LZ4Compressor compressor;
    private final LZ4SafeDecompressor decompressor;
    /** Payloads shorter than this are stored; {@link Integer#MAX_VALUE} when out of scope. */
    private final int minSize;
    private final String from;

    /**
     * @param minSize payloads shorter than this are sent stored
     * @param from the peer, as error messages name it
     */
    Lz4Session(LZ4Compressor compressor, LZ4SafeDecompressor decompressor, int minSize, String from) {
        this.compressor = compressor;
        this.decompressor = decompressor;
        this.minSize = minSize;
        this.from = from;
    }

    /**
     * Compresses the input when it is long enough and shrinks; stores it otherwise, so the result
     * is never more than one byte longer than the input.
     */
    @Override
    public ByteBuffer encode(ByteBuffer header, ByteBuffer input, BufferSource output) {
        int length = input.remaining();
        if (length < minSize) {
            return stored(input, output);
        }
        int worst = compressor.maxCompressedLength(length);
        ByteBuffer out;
        try {
            out = output.acquire(BLOCK_OFFSET + worst);
        } catch (MessageTooLargeException e) {
            // Only the room for lz4's worst case is over the bound; the input itself fits stored.
            return stored(input, output);
        }
        int at = input.position();
        int compressed = compressor.compress(input, at, length, out, BLOCK_OFFSET, worst);
        if (BLOCK_OFFSET + compressed < STORED_DATA_OFFSET + length) {
            out.put(FLAG_OFFSET, COMPRESSED).putInt(LENGTH_OFFSET, length).limit(BLOCK_OFFSET + compressed);
        } else {
            // Did not shrink: the block is dropped and the same buffer carries the input stored.
            out.put(FLAG_OFFSET, STORED).put(STORED_DATA_OFFSET, input, at, length)
                .limit(STORED_DATA_OFFSET + length);
        }
        input.position(input.limit());
        return out.position(0);
    }

    private static ByteBuffer stored(ByteBuffer input, BufferSource output) {
        int length = input.remaining();
        ByteBuffer out = output.acquire(STORED_DATA_OFFSET + length);
        out.put(FLAG_OFFSET, STORED).put(STORED_DATA_OFFSET, input, input.position(), length)
            .limit(STORED_DATA_OFFSET + length);
        input.position(input.limit());
        return out.position(0);
    }

    /**
     * @throws MessageTooLargeException if the payload declares more bytes than the context accepts;
     *     nothing was allocated for it
     * @throws MalformedMessageException if the payload is empty, has an unknown flag, is cut short,
     *     or its block is corrupt or does not decompress to exactly the declared length
     */
    @Override
    public ByteBuffer decode(ByteBuffer header, ByteBuffer input, BufferSource output) {
        int length = input.remaining();
        if (length < 1) {
            throw new MalformedMessageException("lz4 payload from " + from + " is empty; it must "
                + "begin with a 1-byte flag (0 stored, 1 compressed)");
        }
        int at = input.position();
        byte flag = input.get(at + FLAG_OFFSET);
        if (flag == STORED) {
            // The stored bytes are already the result: hand back a view, not a copy.
            ByteBuffer out = input.slice(at + STORED_DATA_OFFSET, length - STORED_DATA_OFFSET);
            input.position(input.limit());
            return out;
        }
        if (flag != COMPRESSED) {
            throw new MalformedMessageException("lz4 payload from " + from + " has flag " + (flag & 0xFF)
                + "; only 0 (stored) and 1 (compressed) exist");
        }
        if (length < BLOCK_OFFSET) {
            throw new MalformedMessageException("lz4 payload from " + from + " is " + length
                + " bytes, too short for the flag and 4-byte length of a compressed block");
        }
        long declared = Integer.toUnsignedLong(input.getInt(at + LENGTH_OFFSET));
        if (declared > Integer.MAX_VALUE) {
            throw new MessageTooLargeException("lz4 payload from " + from + " declares " + declared
                + " decompressed bytes, more than any message may have");
        }
        int expected = (int) declared;
        // The bound is checked here, before anything is allocated for the output.
        ByteBuffer out = output.acquire(expected);
        int produced;
        try {
            produced = decompressor.decompress(input, at + BLOCK_OFFSET, length - BLOCK_OFFSET, out, 0, expected);
        } catch (LZ4Exception e) {
            throw new MalformedMessageException("lz4 block of " + (length - BLOCK_OFFSET) + " bytes from "
                + from + " is corrupt or decompresses to more than the declared " + expected + " bytes ("
                + e.getMessage() + ")", e);
        }
        if (produced != expected) {
            throw new MalformedMessageException("lz4 block from " + from + " decompresses to " + produced
                + " bytes but declares " + expected);
        }
        input.position(input.limit());
        return out.position(0).limit(expected);
    }

    @Override
    public void close() {
        // Nothing to release: the compressor and decompressor belong to the transform.
    }
}
