package io.polylink.mpi.internal.datatype;

/** Where packed data goes: a message or a byte array, in network byte order. */
public interface WireWriter {

    void putByte(byte value);

    void putShort(short value);

    void putInt(int value);

    void putLong(long value);

    /** Appends {@code length} bytes of {@code source} from {@code offset}. */
    void putBytes(byte[] source, int offset, int length);

    /**
     * Appends {@code count} values of {@code array}, a primitive array of {@code kind} (not
     * {@code byte} or {@code boolean}), from {@code offset}: what as many one-value puts would,
     * floats and doubles as their raw bits, in one copy.
     */
    void putValues(Kind kind, Object array, int offset, int count);
}
