package io.polylink.mpi.internal.datatype;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Where packed data goes: a message or a byte array, each value in {@link #ORDER}.
 */
public interface WireWriter {

    /**
     * The byte order of packed values: little-endian, the order of the machines ranks run on (x86,
     * ARM), so packing an array is a plain copy there; a big-endian host swaps, and talks to the
     * others all the same.
     */
    ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    void putByte(byte value);

    void putShort(short value);

    void putInt(int value);

    void putLong(long value);

    /** Appends {@code length} bytes of {@code source} from {@code offset}. */
    void putBytes(byte[] source, int offset, int length);

    /**
     * Appends {@code length} bytes of {@code source} from index {@code offset}, within its limit;
     * its position does not count.
     */
    void putBytes(ByteBuffer source, int offset, int length);

    /**
     * Appends {@code count} values of {@code array}, a primitive array of {@code kind} (not
     * {@code byte} or {@code boolean}), from {@code offset}: what as many one-value puts would,
     * floats and doubles as their raw bits, in one copy.
     */
    void putValues(Kind kind, Object array, int offset, int count);
}
