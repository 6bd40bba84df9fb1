package io.polylink.mpi.internal.datatype;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;

/** {@code MPI_Pack} and {@code MPI_Unpack}: typed data to and from the wire format in a byte array. */
public final class Packing {

    private Packing() {}

    /**
     * Packs {@code count} elements of {@code map} from {@code in} into {@code out} at {@code position}.
     *
     * @return the position after the packed bytes
     * @throws MpiError {@code ERR_TRUNCATE} if they do not fit, or what {@link Memories#check} throws
     */
    public static int pack(Object in, int count, Typemap map, byte[] out, int position) {
        Memory memory = Memories.of(in, false);
        Memories.check(memory, map, count, "the input buffer");
        long bytes = map.size() * count;
        if (position < 0 || position > out.length || bytes > out.length - position) {
            throw new MpiError(ErrorClass.ERR_TRUNCATE, "pack: " + bytes + " bytes do not fit at position " + position
                + " of a byte[" + out.length + "]");
        }
        ArrayWriter writer = new ArrayWriter(out, position);
        new Cursor(memory, map, count).pack(writer, bytes);
        return writer.position();
    }

    /**
     * Unpacks {@code count} elements of {@code map} from {@code in} at {@code position} into {@code out}.
     *
     * @return the position after the bytes read
     * @throws MpiError {@code ERR_TRUNCATE} if {@code in} has fewer bytes than they take
     */
    public static int unpack(byte[] in, int position, Object out, int count, Typemap map) {
        Memory memory = Memories.of(out, true);
        Memories.check(memory, map, count, "the output buffer");
        long bytes = map.size() * count;
        if (position < 0 || position > in.length || bytes > in.length - position) {
            throw new MpiError(ErrorClass.ERR_TRUNCATE, "unpack: " + count + " elements take " + bytes
                + " bytes, but a byte[" + in.length + "] has " + Math.max(0, in.length - position) + " from position "
                + position);
        }
        ArrayReader reader = new ArrayReader(in, position, in.length);
        new Cursor(memory, map, count).unpack(reader, bytes);
        return reader.position();
    }

    /** @return {@code count} elements of {@code map} from {@code in}, packed */
    public static byte[] copy(Object in, int count, Typemap map) {
        long bytes = map.size() * count;
        if (bytes > Integer.MAX_VALUE - 8) {
            throw new MpiError(ErrorClass.ERR_COUNT, bytes + " bytes are too many to copy into one array");
        }
        byte[] out = new byte[(int) bytes];
        pack(in, count, map, out, 0);
        return out;
    }
}
