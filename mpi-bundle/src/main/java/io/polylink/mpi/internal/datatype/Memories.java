package io.polylink.mpi.internal.datatype;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.ShortBuffer;

/** Makes {@link Memory}s of application buffers and checks layouts against them. */
public final class Memories {

    private static final Kind[] KINDS = Kind.values();

    private Memories() {}

    /**
     * @param buffer a primitive array, or a {@code java.nio} buffer: direct ones from their first
     *     element, heap ones from their array offset, as the Open MPI bindings take them
     * @param writable whether data will be written into it (a receive)
     * @return the buffer's memory, or {@code null} for {@code null}
     * @throws MpiError {@code ERR_BUFFER} for anything else, or a read-only buffer to write into
     */
    public static Memory of(Object buffer, boolean writable) {
        if (buffer == null) {
            return null;
        }
        if (buffer instanceof byte[] a) {
            return new ByteArrayMemory(a, 0);
        }
        if (buffer instanceof int[] a) {
            return new ArrayMemory(a, Kind.INT, a.length, 0);
        }
        if (buffer instanceof double[] a) {
            return new ArrayMemory(a, Kind.DOUBLE, a.length, 0);
        }
        if (buffer instanceof long[] a) {
            return new ArrayMemory(a, Kind.LONG, a.length, 0);
        }
        if (buffer instanceof float[] a) {
            return new ArrayMemory(a, Kind.FLOAT, a.length, 0);
        }
        if (buffer instanceof char[] a) {
            return new ArrayMemory(a, Kind.CHAR, a.length, 0);
        }
        if (buffer instanceof short[] a) {
            return new ArrayMemory(a, Kind.SHORT, a.length, 0);
        }
        if (buffer instanceof boolean[] a) {
            return new ArrayMemory(a, Kind.BOOLEAN, a.length, 0);
        }
        if (buffer instanceof Buffer b) {
            return ofBuffer(b, writable);
        }
        throw new MpiError(ErrorClass.ERR_BUFFER, "a buffer must be a primitive array or a java.nio buffer, not "
            + buffer.getClass().getName());
    }

    /** @return the bytes of {@code bytes} from {@code offset} on, as a buffer */
    public static Memory ofBytes(byte[] bytes, int offset) {
        return new ByteArrayMemory(bytes, offset);
    }

    /**
     * @return where any number of copies of {@code map} over {@code memory} lie, as one run of the
     *     wire's bytes, in the application's direct buffer; {@code null} if they do not so lie
     */
    public static Memory.Origin wireOrigin(Memory memory, Typemap map) {
        if (!map.isDense()) {
            return null;
        }
        Memory.Origin o = memory.wireOrigin(map.kind(0));
        return o == null ? null : new Memory.Origin(o.buffer(), o.offset() + map.displacement(0));
    }

    /**
     * @return whether the data of {@code map} in {@code memory} lies as the wire carries it, so a
     *     message can carry it without packing: a dense type of one kind in memory that keeps it in
     *     the wire's order (a byte array, a direct buffer in little-endian order)
     */
    public static boolean liesAsWire(Memory memory, Typemap map) {
        if (!map.isDense() || map.size() == 0) {
            return false;
        }
        Kind kind = map.kind(0);
        return memory.wireBytes(kind, map.displacement(0), kind.size()) != null;
    }

    /**
     * @param memory a memory, or {@code null}
     * @param offset bytes from its start
     * @return the memory seen from {@code offset} bytes in; {@code null} for {@code null}
     */
    public static Memory shifted(Memory memory, long offset) {
        if (memory == null || offset == 0) {
            return memory;
        }
        if (offset <= Integer.MAX_VALUE) {
            if (memory instanceof ArrayMemory a && offset % a.kind().size() == 0) {
                return a.from((int) (offset / a.kind().size()));
            }
            if (memory instanceof ByteArrayMemory b) {
                return b.from((int) offset);
            }
        }
        return new Shifted(memory, offset);
    }

    private static Memory ofBuffer(Buffer buffer, boolean writable) {
        if (writable && buffer.isReadOnly()) {
            throw new MpiError(ErrorClass.ERR_BUFFER, "cannot receive into a read-only " + buffer.getClass().getSimpleName());
        }
        try {
            DirectViews.Bytes under = buffer.isDirect() ? DirectViews.of(buffer) : null;
            Memory bytes = under == null ? null : shifted(under.memory(), under.offset());
            if (buffer instanceof ByteBuffer b) {
                if (bytes != null) {
                    return bytes;
                }
                return b.isDirect() ? new ByteBufferMemory(b) : new ByteArrayMemory(b.array(), b.arrayOffset());
            }
            Kind kind = kindOf(buffer);
            if (buffer.isDirect()) {
                return new TypedBufferMemory(buffer, kind, bytes);
            }
            Object array = buffer.array();
            return new ArrayMemory(array, kind, java.lang.reflect.Array.getLength(array), buffer.arrayOffset());
        } catch (ReadOnlyBufferException e) {
            throw new MpiError(ErrorClass.ERR_BUFFER, "a read-only heap " + buffer.getClass().getSimpleName()
                + " has no array to send from; send a copy or a direct buffer");
        }
    }

    private static Kind kindOf(Buffer buffer) {
        if (buffer instanceof IntBuffer) {
            return Kind.INT;
        } else if (buffer instanceof DoubleBuffer) {
            return Kind.DOUBLE;
        } else if (buffer instanceof LongBuffer) {
            return Kind.LONG;
        } else if (buffer instanceof FloatBuffer) {
            return Kind.FLOAT;
        } else if (buffer instanceof CharBuffer) {
            return Kind.CHAR;
        } else if (buffer instanceof ShortBuffer) {
            return Kind.SHORT;
        }
        throw new MpiError(ErrorClass.ERR_BUFFER, "unknown buffer class " + buffer.getClass().getName());
    }

    /**
     * Checks that {@code count} copies of {@code map} fit in {@code memory} and that it holds their
     * kinds, so the copies never fail halfway on a delivering thread.
     *
     * @param what the buffer's role in an error message, such as "the receive buffer"
     * @throws MpiError {@code ERR_BUFFER} if the copies reach outside the buffer or there is no
     *     buffer, {@code ERR_TYPE} if it cannot hold the data's kinds or alignment
     */
    public static void check(Memory memory, Typemap map, long count, String what) {
        if (count == 0 || map.size() == 0) {
            return;
        }
        if (memory == null) {
            throw new MpiError(ErrorClass.ERR_BUFFER, what + " is null but " + count + " elements of "
                + map.size() + " bytes need one");
        }
        for (int kinds = map.kinds(); kinds != 0; kinds &= kinds - 1) {
            Kind k = KINDS[Integer.numberOfTrailingZeros(kinds)];
            if (!memory.holds(k)) {
                throw new MpiError(ErrorClass.ERR_TYPE, what + ", " + memory.describe() + ", cannot hold "
                    + k.javaName() + " data; use a buffer of " + k.javaName() + "s or of bytes");
            }
        }
        int g = memory.granularity();
        if (g > 1 && (!map.displacementsAlignedTo(g) || (count > 1 && map.extent() % g != 0))) {
            throw new MpiError(ErrorClass.ERR_TYPE, "the datatype places data at byte offsets that are not multiples of "
                + g + ", which " + what + ", " + memory.describe() + ", needs");
        }
        long last = (count - 1) * map.extent();
        long low = Math.min(0, last) + map.trueLb();
        long high = Math.max(0, last) + map.trueLb() + map.trueExtent();
        if (low < 0 || high > memory.capacity()) {
            throw new MpiError(ErrorClass.ERR_BUFFER, count + " elements of the datatype (" + map + ") span bytes "
                + low + " to " + high + " of " + what + ", but " + memory.describe() + " has bytes 0 to "
                + memory.capacity());
        }
    }
}
