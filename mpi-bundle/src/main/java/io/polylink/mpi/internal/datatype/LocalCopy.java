package io.polylink.mpi.internal.datatype;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import java.nio.ByteBuffer;

/**
 * Copies typed data from one region of this rank's memory to another, as a message from a rank to
 * itself would carry it: the data's primitives in order, whatever either layout. Copies between
 * arrays of one kind laid out without gaps go straight from array to array, and between direct
 * buffers whose values lie as the wire's bytes from buffer to buffer.
 */
public final class LocalCopy {

    private static final int CHUNK = 64 * 1024;

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

    /** @return whether the data went from array to array in one piece */
    private static boolean direct(Region from, Region to, long bytes) {
        Typemap a = from.map();
        Typemap b = to.map();
        if (!a.isDense() || !b.isDense() || a.kind(0) != b.kind(0)) {
            return false;
        }
        Kind kind = a.kind(0);
        if (from.memory() instanceof ArrayMemory x && to.memory() instanceof ArrayMemory y && x.kind() == kind
                && y.kind() == kind) {
            System.arraycopy(x.array(), x.base() + (int) (a.lb() / kind.size()), y.array(),
                y.base() + (int) (b.lb() / kind.size()), (int) (bytes / kind.size()));
            return true;
        }
        if (from.memory() instanceof ByteArrayMemory x && to.memory() instanceof ByteArrayMemory y) {
            System.arraycopy(x.bytes(), x.base() + (int) a.lb(), y.bytes(), y.base() + (int) b.lb(), (int) bytes);
            return true;
        }
        if (bytes <= Integer.MAX_VALUE) {
            // Direct buffers whose values lie as the wire's bytes: one bulk copy, not two through a chunk.
            ByteBuffer source = from.memory().wireBytes(kind, a.lb(), (int) bytes);
            ByteBuffer target = source == null ? null : to.memory().wireBytes(kind, b.lb(), (int) bytes);
            if (target != null) {
                target.put(source);
                return true;
            }
        }
        return false;
    }
}
