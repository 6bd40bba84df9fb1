package io.polylink.mpi.internal.datatype;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Copies typed data from one region of this rank's memory to another, as a message from a rank to
 * itself would carry it: the data's primitives in order, whatever either layout. Copies between
 * arrays of one kind laid out without gaps go straight from array to array, and between direct
 * buffers whose values lie as the wire's bytes from buffer to buffer.
 */
public final class LocalCopy {

    private static final int CHUNK = 64 * 1024;
    /** Whether values in native order lie as the wire's: then they pack as they lie. */
    private static final boolean NATIVE_IS_WIRE = ByteOrder.nativeOrder() == WireWriter.ORDER;

    private LocalCopy() {}

    /**
     * Copies {@code from}'s data into {@code to}: all of it, into the start of {@code to} if
     * {@code to} holds more.
     *
     * @throws MpiError {@code ERR_TRUNCATE} if {@code to} holds less than {@code from}
     */
    public static void copy(Region from, Region to) {
        long bytes = from.bytes();
        if (bytes > to.bytes()) {
            throw new MpiError(ErrorClass.ERR_TRUNCATE, from.count() + " elements of " + bytes + " bytes do not fit "
                + to.count() + " elements of " + to.bytes() + " bytes: the send and receive types and counts do not "
                + "match");
        }
        if (bytes == 0 || direct(from, to, bytes)) {
            return;
        }
        Cursor out = new Cursor(from.memory(), from.map(), from.count());
        Cursor in = new Cursor(to.memory(), to.map(), to.count());
        byte[] chunk = new byte[(int) Math.max(8, Math.min(bytes, CHUNK))];
        while (!out.finished()) {
            int packed = (int) out.pack(new ArrayWriter(chunk, 0), chunk.length);
            in.unpack(new ArrayReader(chunk, 0, packed), packed);
        }
    }

    /**
     * Packs {@code from}'s data into {@code to} from its byte 0, as the wire carries it: values of an
     * array or a direct buffer laid out without gaps straight in, where native order is the wire's.
     *
     * @param to at least {@code from.bytes()} bytes
     */
    public static void pack(Region from, ByteBuffer to) {
        long bytes = from.bytes();
        if (bytes == 0 || packDense(from, to, (int) bytes)) {
            return;
        }
        copy(from, new Region(new ByteBufferMemory(to), Typemap.basic(Kind.BYTE), bytes));
    }

    /** Unpacks into {@code to} the data {@link #pack} put in {@code from}. */
    public static void unpack(ByteBuffer from, Region to) {
        long bytes = to.bytes();
        if (bytes == 0 || unpackDense(from, to, (int) bytes)) {
            return;
        }
        copy(new Region(new ByteBufferMemory(from), Typemap.basic(Kind.BYTE), bytes), to);
    }

    private static boolean packDense(Region from, ByteBuffer to, int bytes) {
        Typemap map = from.map();
        if (!NATIVE_IS_WIRE || !map.isDense()) {
            return false;
        }
        Kind kind = map.kind(0);
        if (kind != Kind.BOOLEAN && from.memory() instanceof ArrayMemory a && a.kind() == kind) {
            Values.putNative(to, 0, kind, a.array(), first(a, map, kind), bytes / kind.size());
            return true;
        }
        ByteBuffer source = from.memory().wireBytes(kind, map.lb(), bytes);
        if (source != null) {
            to.put(0, source, 0, bytes);
            return true;
        }
        return false;
    }

    private static boolean unpackDense(ByteBuffer from, Region to, int bytes) {
        Typemap map = to.map();
        if (!NATIVE_IS_WIRE || !map.isDense()) {
            return false;
        }
        Kind kind = map.kind(0);
        if (kind != Kind.BOOLEAN && to.memory() instanceof ArrayMemory a && a.kind() == kind) {
            Values.getNative(from, 0, kind, a.array(), first(a, map, kind), bytes / kind.size());
            return true;
        }
        ByteBuffer target = to.memory().wireBytes(kind, map.lb(), bytes);
        if (target != null) {
            target.put(0, from, 0, bytes);
            return true;
        }
        return false;
    }

    /** @return the index of the first value of data laid out densely by {@code map} in {@code array}, a slice's too */
    private static int first(ArrayMemory array, Typemap map, Kind kind) {
        return array.base() + (int) (map.lb() / kind.size());
    }

    /** @return whether the data went in one piece: array to array, or between an array or a buffer and a buffer */
    private static boolean direct(Region from, Region to, long bytes) {
        Typemap a = from.map();
        Typemap b = to.map();
        if (!a.isDense() || !b.isDense() || a.kind(0) != b.kind(0)) {
            return false;
        }
        Kind kind = a.kind(0);
        if (from.memory() instanceof ArrayMemory x && to.memory() instanceof ArrayMemory y && x.kind() == kind
                && y.kind() == kind) {
            System.arraycopy(x.array(), first(x, a, kind), y.array(), first(y, b, kind), (int) (bytes / kind.size()));
            return true;
        }
        if (from.memory() instanceof ByteArrayMemory x && to.memory() instanceof ByteArrayMemory y) {
            System.arraycopy(x.bytes(), x.base() + (int) a.lb(), y.bytes(), y.base() + (int) b.lb(), (int) bytes);
            return true;
        }
        if (bytes > Integer.MAX_VALUE) {
            return false;
        }
        // Direct buffers whose values lie as the wire's bytes: one bulk copy, not two through a chunk.
        ByteBuffer source = from.memory().wireBytes(kind, a.lb(), (int) bytes);
        ByteBuffer target = to.memory().wireBytes(kind, b.lb(), (int) bytes);
        if (source != null && target != null) {
            target.put(source);
            return true;
        }
        if (!NATIVE_IS_WIRE || kind == Kind.BOOLEAN) {
            return false;
        }
        int values = (int) (bytes / kind.size());
        if (target != null && from.memory() instanceof ArrayMemory x && x.kind() == kind) {
            Values.putNative(target, 0, kind, x.array(), first(x, a, kind), values);
            return true;
        }
        if (source != null && to.memory() instanceof ArrayMemory y && y.kind() == kind) {
            Values.getNative(source, 0, kind, y.array(), first(y, b, kind), values);
            return true;
        }
        return false;
    }
}
