package io.polylink.mpi.internal.datatype;

import io.polylink.MessageBuffer;

/** Unpacks from a delivered RSR's buffer, which checks every read against what it holds. */
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
        return message.getShort();
    }

    @Override
    public int getInt() {
        return message.getInt();
    }

    @Override
    public long getLong() {
        return message.getLong();
    }

    @Override
    public void getBytes(byte[] target, int offset, int length) {
        message.getRaw(target, offset, length);
    }

    @Override
    public void getValues(Kind kind, Object array, int offset, int count) {
        switch (kind) {
            case SHORT -> message.getShorts((short[]) array, offset, count);
            case CHAR -> message.getChars((char[]) array, offset, count);
            case INT -> message.getInts((int[]) array, offset, count);
            case LONG -> message.getLongs((long[]) array, offset, count);
            case FLOAT -> message.getFloats((float[]) array, offset, count);
            case DOUBLE -> message.getDoubles((double[]) array, offset, count);
            case BYTE, BOOLEAN -> throw new IllegalArgumentException(kind + " values go one by one");
        }
    }
}
