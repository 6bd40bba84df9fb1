package io.polylink.mpi.internal.datatype;

import io.polylink.MessageBuffer;

/** Packs into an RSR's buffer. */
public final class MessageWriter implements WireWriter {

    private final MessageBuffer message;

    public MessageWriter(MessageBuffer message) {
        this.message = message;
    }

    @Override
    public void putByte(byte value) {
        message.putByte(value);
    }

    @Override
    public void putShort(short value) {
        message.putShort(value);
    }

    @Override
    public void putInt(int value) {
        message.putInt(value);
    }

    @Override
    public void putLong(long value) {
        message.putLong(value);
    }

    @Override
    public void putBytes(byte[] source, int offset, int length) {
        message.putRaw(source, offset, length);
    }

    @Override
    public void putValues(Kind kind, Object array, int offset, int count) {
        switch (kind) {
            case SHORT -> message.putShorts((short[]) array, offset, count);
            case CHAR -> message.putChars((char[]) array, offset, count);
            case INT -> message.putInts((int[]) array, offset, count);
            case LONG -> message.putLongs((long[]) array, offset, count);
            case FLOAT -> message.putFloats((float[]) array, offset, count);
            case DOUBLE -> message.putDoubles((double[]) array, offset, count);
            case BYTE, BOOLEAN -> throw new IllegalArgumentException(kind + " values go one by one");
        }
    }
}
