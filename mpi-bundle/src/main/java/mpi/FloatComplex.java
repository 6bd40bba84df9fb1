package mpi;

import java.nio.ByteBuffer;
import java.nio.FloatBuffer;

/** A view of one {@code float} complex number, real part then imaginary, in a buffer or an array of floats. */
public final class FloatComplex {

    private final FloatBuffer buffer;
    private final int offset;

    private FloatComplex(FloatBuffer buffer, int index) {
        this.buffer = buffer;
        this.offset = index * 2;
    }

    /** @return the number at the start of {@code buffer} */
    public static FloatComplex get(FloatBuffer buffer) {
        return new FloatComplex(buffer, 0);
    }

    /** @return number {@code index} of {@code buffer} */
    public static FloatComplex get(FloatBuffer buffer, int index) {
        return new FloatComplex(buffer, index);
    }

    /** @return the number at the start of {@code array} */
    public static FloatComplex get(float[] array) {
        return new FloatComplex(FloatBuffer.wrap(array), 0);
    }

    /** @return number {@code index} of {@code array} */
    public static FloatComplex get(float[] array, int index) {
        return new FloatComplex(FloatBuffer.wrap(array), index);
    }

    /** @return the number at the start of {@code buffer}, in the buffer's byte order */
    public static FloatComplex get(ByteBuffer buffer) {
        return new FloatComplex(buffer.asFloatBuffer(), 0);
    }

    /** @return number {@code index} of {@code buffer}, in the buffer's byte order */
    public static FloatComplex get(ByteBuffer buffer, int index) {
        return new FloatComplex(buffer.asFloatBuffer(), index);
    }

    /** @return the real part */
    public float getReal() {
        return buffer.get(offset);
    }

    /** @return the imaginary part */
    public float getImag() {
        return buffer.get(offset + 1);
    }

    /** @param real the real part */
    public void putReal(float real) {
        buffer.put(offset, real);
    }

    /** @param imag the imaginary part */
    public void putImag(float imag) {
        buffer.put(offset + 1, imag);
    }

    /** @return a buffer whose first element is this number's real part */
    public FloatBuffer getBuffer() {
        return offset == 0 ? buffer : MPI.slice(buffer, offset);
    }
}
