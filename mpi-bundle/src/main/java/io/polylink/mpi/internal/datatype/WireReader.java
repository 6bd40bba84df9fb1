package io.polylink.mpi.internal.datatype;

import java.nio.ByteBuffer;

/** Where packed data comes from: a message or a byte array, each value in {@link WireWriter#ORDER}. */
public interface WireReader {

    byte getByte();

    short getShort();

    int getInt();

    long getLong();

    /** Reads {@code length} bytes into {@code target} from {@code offset}. */
    void getBytes(byte[] target, int offset, int length);

    /**
     * Reads {@code length} bytes into {@code target} from index {@code offset}, within its limit;
     * its position does not count.
     */
    void getBytes(ByteBuffer target, int offset, int length);

    /** Reads {@code count} values written by {@link WireWriter#putValues} into {@code array} from {@code offset}. */
    void getValues(Kind kind, Object array, int offset, int count);
}
