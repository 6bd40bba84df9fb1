package io.polylink.mpi.internal.datatype;

import io.polylink.MessageBuffer;
import java.nio.ByteBuffer;

/**
 * Packs into an RSR's buffer. The buffer's one-value routines write network byte order, so a value
 * goes with its bytes reversed, which lays it out little-endian ({@link WireWriter#ORDER}).
 */
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
        message.putShort(Short.reverseBytes(value));
    }

    @Override
    public void putInt(int value) {
        message.putInt(Integer.reverseBytes(value));
    }

    @Override
    public void putLong(long value) {
        message.putLong(Long.reverseBytes(value));
    }

    @Override
    public void putBytes(byte[] source, int offset, int length) {
        message.putRaw(source, offset, length);
    }

    @Override
    public void putBytes(ByteBuffer source, int offset, int length) {
        message.putRaw(source, offset, length);
    }

    @Override
    public void putValues(Kind kind, Object array, int offset, int count) {
        switch (kind) {
            case SHORT -> message.putShorts((short[]) array, offset, count, ORDER);
            case CHAR -> message.putChars((char[]) array, offset, count, ORDER);
            case INT -> message.putInts((int[]) array, offset, count, ORDER);
            case LONG -> message.putLongs((long[]) array, offset, count, ORDER);
            case FLOAT -> message.putFloats((float[]) array, offset, count, ORDER);
            case DOUBLE -> message.putDoubles((double[]) array, offset, count, ORDER);
            case BYTE, BOOLEAN -> throw new IllegalArgumentException(kind + " values go one by one");
        }
    }
}
