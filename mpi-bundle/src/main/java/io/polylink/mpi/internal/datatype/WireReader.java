package io.polylink.mpi.internal.datatype;

/** Where packed data comes from: a message or a byte array, in network byte order. */
public interface WireReader {

    byte getByte();

    short getShort();

    int getInt();

    long getLong();

    /** Reads {@code length} bytes into {@code target} from {@code offset}. */
    void getBytes(byte[] target, int offset, int length);
}
