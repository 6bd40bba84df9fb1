package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Base of struct datatypes over byte buffers. A subclass adds its fields in its constructor
 * ({@link #addInt()} and the like return each field's byte offset), and defines a {@link Data}
 * subclass whose accessors read and write the fields of one struct in a buffer. {@link #getType}
 * is the struct's {@link Datatype}, made with {@link Datatype#createStruct} on first use; its extent
 * is padded to the alignment of the largest field, as a C compiler pads a struct.
 */
public abstract class Struct {

    private final List<Field> fields = new ArrayList<>();
    private int extent;
    private Datatype datatype;

    private record Field(Object type, int offset, int length) {}

    private synchronized void commit() throws MPIException {
        if (datatype != null) {
            return;
        }
        int n = fields.size();
        Datatype[] types = new Datatype[n];
        int[] offsets = new int[n];
        int[] lengths = new int[n];
        for (int i = 0; i < n; i++) {
            Field f = fields.get(i);
            types[i] = f.type instanceof Struct s ? s.getType() : (Datatype) f.type;
            offsets[i] = f.offset;
            lengths[i] = f.length;
        }
        Datatype t = Datatype.createStruct(lengths, offsets, types);
        t.commit();
        extent = t.getExtent();
        datatype = t;
    }

    /** @return the bytes from one struct to the next in a buffer */
    public final int getExtent() throws MPIException {
        commit();
        return extent;
    }

    /** @return the struct's datatype, committed */
    public final Datatype getType() throws MPIException {
        commit();
        return datatype;
    }

    /** @return a new accessor of this struct's kind */
    protected abstract Data newData();

    @SuppressWarnings("unchecked")
    private <T extends Data> T newData(ByteBuffer buffer, int offset) {
        Data d = newData();
        d.buffer = buffer;
        d.offset = offset;
        return (T) d;
    }

    /** @return an accessor of the struct at the start of {@code buffer} */
    public final <T extends Data> T getData(ByteBuffer buffer) throws MPIException {
        commit();
        return newData(buffer, 0);
    }

    /** @return an accessor of struct {@code index} of an array of structs in {@code buffer} */
    public final <T extends Data> T getData(ByteBuffer buffer, int index) throws MPIException {
        commit();
        return newData(buffer, index * extent);
    }

    /** @return an accessor of the struct at the start of {@code array}, in native byte order */
    public final <T extends Data> T getData(byte[] array) throws MPIException {
        return getData(ByteBuffer.wrap(array).order(ByteOrder.nativeOrder()));
    }

    /** @return an accessor of struct {@code index} of an array of structs in {@code array}, in native byte order */
    public final <T extends Data> T getData(byte[] array, int index) throws MPIException {
        return getData(ByteBuffer.wrap(array).order(ByteOrder.nativeOrder()), index);
    }

    private synchronized int addField(Object type, int typeExtent, int length) {
        if (datatype != null) {
            throw new AssertionError("The struct data type was committed.");
        }
        int offset = extent;
        extent += typeExtent * length;
        fields.add(new Field(type, offset, length));
        return offset;
    }

    /**
     * Places the next field at {@code offset}, leaving a gap.
     *
     * @return this struct
     * @throws IllegalArgumentException if {@code offset} is before the end of the fields so far
     */
    public final synchronized Struct setOffset(int offset) {
        if (datatype != null) {
            throw new AssertionError("The struct data type was committed.");
        }
        if (offset < extent) {
            throw new IllegalArgumentException("The offset must be greater or equal to the accumulated extent.");
        }
        extent = offset;
        return this;
    }

    /** @return the offset of a new byte field */
    public final int addByte() {
        return addByte(1);
    }

    /** @return the offset of a new field of {@code length} bytes */
    public final int addByte(int length) {
        return addField(MPI.BYTE, 1, length);
    }

    /** @return the offset of a new char field */
    public final int addChar() {
        return addChar(1);
    }

    /** @return the offset of a new field of {@code length} chars */
    public final int addChar(int length) {
        return addField(MPI.CHAR, 2, length);
    }

    /** @return the offset of a new short field */
    public final int addShort() {
        return addShort(1);
    }

    /** @return the offset of a new field of {@code length} shorts */
    public final int addShort(int length) {
        return addField(MPI.SHORT, 2, length);
    }

    /** @return the offset of a new int field */
    public final int addInt() {
        return addInt(1);
    }

    /** @return the offset of a new field of {@code length} ints */
    public final int addInt(int length) {
        return addField(MPI.INT, 4, length);
    }

    /** @return the offset of a new long field */
    public final int addLong() {
        return addLong(1);
    }

    /** @return the offset of a new field of {@code length} longs */
    public final int addLong(int length) {
        return addField(MPI.LONG, 8, length);
    }

    /** @return the offset of a new float field */
    public final int addFloat() {
        return addFloat(1);
    }

    /** @return the offset of a new field of {@code length} floats */
    public final int addFloat(int length) {
        return addField(MPI.FLOAT, 4, length);
    }

    /** @return the offset of a new double field */
    public final int addDouble() {
        return addDouble(1);
    }

    /** @return the offset of a new field of {@code length} doubles */
    public final int addDouble(int length) {
        return addField(MPI.DOUBLE, 8, length);
    }

    /** @return the offset of a new field holding a struct of type {@code struct} */
    public final int addStruct(Struct struct) throws MPIException {
        return addStruct(struct, 1);
    }

    /** @return the offset of a new field of {@code length} structs of type {@code struct} */
    public final int addStruct(Struct struct, int length) throws MPIException {
        return addField(struct, struct.getExtent(), length);
    }

    /** @return the offset of a new field of one {@code type} element */
    public final int addData(Datatype type) throws MPIException {
        return addData(type, 1);
    }

    /** @return the offset of a new field of {@code length} {@code type} elements */
    public final int addData(Datatype type, int length) throws MPIException {
        return addField(type, type.getExtent() * type.baseSize, length);
    }

    /**
     * Reads and writes the fields of one struct in a byte buffer, at the struct's offset plus the
     * field's. Subclasses name their accessors after their fields.
     */
    public abstract class Data {

        private ByteBuffer buffer;
        private int offset;

        /** @return a buffer whose first byte is this struct's, for sending and receiving it alone */
        public final ByteBuffer getBuffer() {
            return offset == 0 ? buffer : MPI.slice(buffer, offset);
        }

        protected final byte getByte(int field) {
            return buffer.get(offset + field);
        }

        protected final byte getByte(int field, int index) {
            return buffer.get(offset + field + index);
        }

        protected final void putByte(int field, byte v) {
            buffer.put(offset + field, v);
        }

        protected final void putByte(int field, int index, byte v) {
            buffer.put(offset + field + index, v);
        }

        protected final char getChar(int field) {
            return buffer.getChar(offset + field);
        }

        protected final char getChar(int field, int index) {
            return buffer.getChar(offset + field + index * 2);
        }

        protected final void putChar(int field, char v) {
            buffer.putChar(offset + field, v);
        }

        protected final void putChar(int field, int index, char v) {
            buffer.putChar(offset + field + index * 2, v);
        }

        protected final short getShort(int field) {
            return buffer.getShort(offset + field);
        }

        protected final short getShort(int field, int index) {
            return buffer.getShort(offset + field + index * 2);
        }

        protected final void putShort(int field, short v) {
            buffer.putShort(offset + field, v);
        }

        protected final void putShort(int field, int index, short v) {
            buffer.putShort(offset + field + index * 2, v);
        }

        protected final int getInt(int field) {
            return buffer.getInt(offset + field);
        }

        protected final int getInt(int field, int index) {
            return buffer.getInt(offset + field + index * 4);
        }

        protected final void putInt(int field, int v) {
            buffer.putInt(offset + field, v);
        }

        protected final void putInt(int field, int index, int v) {
            buffer.putInt(offset + field + index * 4, v);
        }

        protected final long getLong(int field) {
            return buffer.getLong(offset + field);
        }

        protected final long getLong(int field, int index) {
            return buffer.getLong(offset + field + index * 8);
        }

        protected final void putLong(int field, long v) {
            buffer.putLong(offset + field, v);
        }

        protected final void putLong(int field, int index, long v) {
            buffer.putLong(offset + field + index * 8, v);
        }

        protected final float getFloat(int field) {
            return buffer.getFloat(offset + field);
        }

        protected final float getFloat(int field, int index) {
            return buffer.getFloat(offset + field + index * 4);
        }

        protected final void putFloat(int field, float v) {
            buffer.putFloat(offset + field, v);
        }

        protected final void putFloat(int field, int index, float v) {
            buffer.putFloat(offset + field + index * 4, v);
        }

        protected final double getDouble(int field) {
            return buffer.getDouble(offset + field);
        }

        protected final double getDouble(int field, int index) {
            return buffer.getDouble(offset + field + index * 8);
        }

        protected final void putDouble(int field, double v) {
            buffer.putDouble(offset + field, v);
        }

        protected final void putDouble(int field, int index, double v) {
            buffer.putDouble(offset + field + index * 8, v);
        }

        /** @return an accessor of the struct of type {@code struct} in field {@code field} */
        protected final <S extends Struct, D extends Struct.Data> D getData(S struct, int field) {
            return ((Struct) struct).newData(buffer, offset + field);
        }

        /** @return an accessor of struct {@code index} of the array of {@code struct}s in field {@code field} */
        protected final <S extends Struct, D extends Struct.Data> D getData(S struct, int field, int index) {
            Struct s = struct;
            return s.newData(buffer, offset + field + index * s.extent);
        }

        /** @return a buffer whose first byte is field {@code field}'s */
        protected final ByteBuffer getBuffer(Datatype type, int field) {
            int at = offset + field;
            return at == 0 ? buffer : MPI.slice(buffer, at);
        }

        /** @return a buffer whose first byte is that of element {@code index} of field {@code field} */
        protected final ByteBuffer getBuffer(Datatype type, int field, int index) throws MPIException {
            int at = offset + field + index * type.getExtent() * type.baseSize;
            return at == 0 ? buffer : MPI.slice(buffer, at);
        }
    }
}
