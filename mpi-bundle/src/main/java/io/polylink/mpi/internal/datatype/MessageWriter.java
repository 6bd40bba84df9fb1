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
}
