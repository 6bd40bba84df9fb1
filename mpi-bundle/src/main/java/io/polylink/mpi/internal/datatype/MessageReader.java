package io.polylink.mpi.internal.datatype;

import io.polylink.MessageBuffer;
import java.nio.ByteBuffer;

/**
 * Unpacks from a delivered RSR's buffer, which checks every read against what it holds; values are
 * little-endian ({@link WireWriter#ORDER}), read through network-order routines and reversed.
 */
public final class MessageReader implements WireReader {

    private final MessageBuffer message;

    public MessageReader(MessageBuffer message) {
        this.message = message;
    }

    @Override
    public byte getByte() {
        return message.getByte();
    }

    @Override
    public short getShort() {
        return Short.reverseBytes(message.getShort());
    }

    @Override
    public int getInt() {
        return Integer.reverseBytes(message.getInt());
    }

    @Override
    public long getLong() {
        return Long.reverseBytes(message.getLong());
    }

    @Override
    public void getBytes(byte[] target, int offset, int length) {
        message.getRaw(target, offset, length);
    }

    @Override
    public void getBytes(ByteBuffer target, int offset, int length) {
        message.getRaw(target, offset, length);
    }

    @Override
    public void getValues(Kind kind, Object array, int offset, int count) {
        switch (kind) {
            case SHORT -> message.getShorts((short[]) array, offset, count, WireWriter.ORDER);
            case CHAR -> message.getChars((char[]) array, offset, count, WireWriter.ORDER);
            case INT -> message.getInts((int[]) array, offset, count, WireWriter.ORDER);
            case LONG -> message.getLongs((long[]) array, offset, count, WireWriter.ORDER);
            case FLOAT -> message.getFloats((float[]) array, offset, count, WireWriter.ORDER);
            case DOUBLE -> message.getDoubles((double[]) array, offset, count, WireWriter.ORDER);
            case BYTE, BOOLEAN -> throw new IllegalArgumentException(kind + " values go one by one");
        }
    }
}
