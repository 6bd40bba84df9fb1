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
}
