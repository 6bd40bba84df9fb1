package io.polylink.mpi.internal.datatype;

import java.nio.ByteBuffer;

/**
 * An application buffer, addressed in bytes from its first element. {@link Memories#of} makes one
 * and checks a layout against it, so the copying methods need check nothing.
 */
public interface Memory {

    /** @return bytes from the first element to the end */
    long capacity();

    /** @return whether primitives of {@code kind} can be read and written here */
    boolean holds(Kind kind);

    /** @return the bytes every access here must be aligned to: an array's element size, or 1 */
    int granularity();

    /** Copies {@code n} elements of {@code kind} starting {@code at} bytes from the start to {@code out}. */
    void write(WireWriter out, Kind kind, long at, int n);

    /** Copies {@code n} elements of {@code kind} from {@code in} to {@code at} bytes from the start. */
    void read(WireReader in, Kind kind, long at, int n);

    /**
     * @return {@code length} bytes from {@code at}, as a buffer of their own, if they already are
     *     the wire form of {@code kind}'s elements there, so a message can carry them as they lie;
     *     {@code null} if they must be packed
     */
    default ByteBuffer wireBytes(Kind kind, long at, int length) {
        return null;
    }

    /**
     * @return the application's direct buffer these bytes lie in, and where they start there, if
     *     {@code kind}'s elements lie in it as the wire carries them; {@code null} otherwise
     */
    default Origin wireOrigin(Kind kind) {
        return null;
    }

    /**
     * An application's buffer and a byte offset in it.
     *
     * @param buffer the buffer the application passed, as the identity it was made with
     * @param offset bytes from its first element
     */
    record Origin(Object buffer, long offset) {}

    /** @return the buffer as an error message names it, such as {@code int[10]} */
    String describe();
}
