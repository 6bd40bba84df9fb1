package io.polylink.mpi.internal.datatype;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

/**
 * A direct char, short, int, long, float or double buffer from its first element: holds only its
 * own kind, at byte offsets that are multiples of the element size. Where the byte buffer it lies
 * in is known ({@link DirectViews}), its values move as those bytes, in bulk; otherwise one by one,
 * as Java offers no other way.
 */
final class TypedBufferMemory implements Memory {

    private final Buffer buffer;
    private final Kind kind;

    /** The bytes the buffer lies in, in native order, from its first element; or {@code null}. */
    private final Memory bytes;

    TypedBufferMemory(Buffer buffer, Kind kind, Memory bytes) {
        this.buffer = buffer;
        this.kind = kind;
        this.bytes = bytes;
    }

    @Override
    public long capacity() {
        return (long) buffer.capacity() * kind.size();
    }

    @Override
    public boolean holds(Kind k) {
        return k == kind;
    }

    @Override
    public int granularity() {
        return kind.size();
    }

    @Override
    public void write(WireWriter out, Kind k, long at, int n) {
        if (bytes != null) {
            bytes.write(out, k, at, n);
            return;
        }
        int p = (int) (at / kind.size());
        switch (kind) {
            case CHAR -> {
                CharBuffer b = (CharBuffer) buffer;
                for (int i = 0; i < n; i++) {
                    out.putShort((short) b.get(p + i));
                }
            }
            case SHORT -> {
                ShortBuffer b = (ShortBuffer) buffer;
                for (int i = 0; i < n; i++) {
                    out.putShort(b.get(p + i));
                }
            }
            case INT -> {
                IntBuffer b = (IntBuffer) buffer;
                for (int i = 0; i < n; i++) {
                    out.putInt(b.get(p + i));
                }
            }
            case LONG -> {
                LongBuffer b = (LongBuffer) buffer;
                for (int i = 0; i < n; i++) {
                    out.putLong(b.get(p + i));
                }
            }
            case FLOAT -> {
                FloatBuffer b = (FloatBuffer) buffer;
                for (int i = 0; i < n; i++) {
                    out.putInt(Float.floatToRawIntBits(b.get(p + i)));
                }
            }
            case DOUBLE -> {
                DoubleBuffer b = (DoubleBuffer) buffer;
                for (int i = 0; i < n; i++) {
                    out.putLong(Double.doubleToRawLongBits(b.get(p + i)));
                }
            }
            default -> throw new IllegalStateException(kind + " buffers are not typed buffers");
        }
    }

    @Override
    public void read(WireReader in, Kind k, long at, int n) {
        if (bytes != null) {
            bytes.read(in, k, at, n);
            return;
        }
        int p = (int) (at / kind.size());
        switch (kind) {
            case CHAR -> {
                CharBuffer b = (CharBuffer) buffer;
                for (int i = 0; i < n; i++) {
                    b.put(p + i, (char) in.getShort());
                }
            }
            case SHORT -> {
                ShortBuffer b = (ShortBuffer) buffer;
                for (int i = 0; i < n; i++) {
                    b.put(p + i, in.getShort());
                }
            }
            case INT -> {
                IntBuffer b = (IntBuffer) buffer;
                for (int i = 0; i < n; i++) {
                    b.put(p + i, in.getInt());
                }
            }
            case LONG -> {
                LongBuffer b = (LongBuffer) buffer;
                for (int i = 0; i < n; i++) {
                    b.put(p + i, in.getLong());
                }
            }
            case FLOAT -> {
                FloatBuffer b = (FloatBuffer) buffer;
                for (int i = 0; i < n; i++) {
                    b.put(p + i, Float.intBitsToFloat(in.getInt()));
                }
            }
            case DOUBLE -> {
                DoubleBuffer b = (DoubleBuffer) buffer;
                for (int i = 0; i < n; i++) {
                    b.put(p + i, Double.longBitsToDouble(in.getLong()));
                }
            }
            default -> throw new IllegalStateException(kind + " buffers are not typed buffers");
        }
    }

    @Override
    public ByteBuffer wireBytes(Kind k, long at, int length) {
        return bytes == null ? null : bytes.wireBytes(k, at, length);
    }

    /** Found through the bytes the buffer lies in, since only they can be a shared buffer's. */
    @Override
    public Origin wireOrigin(Kind k) {
        return bytes == null ? null : bytes.wireOrigin(k);
    }

    @Override
    public String describe() {
        String name = kind.javaName();
        return "direct " + Character.toUpperCase(name.charAt(0)) + name.substring(1) + "Buffer of "
            + buffer.capacity() + " " + name + "s";
    }
}
