package mpi;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;

/** A view of one {@code double} complex number, real part then imaginary, in a buffer or an array of doubles. */
public final class DoubleComplex {

    private final DoubleBuffer buffer;
    private final int offset;

    private DoubleComplex(DoubleBuffer buffer, int index) {
        this.buffer = buffer;
        this.offset = index * 2;
    }

    /** @return the number at the start of {@code buffer} */
    public static DoubleComplex get(DoubleBuffer buffer) {
        return new DoubleComplex(buffer, 0);
    }

    /** @return number {@code index} of {@code buffer} */
    public static DoubleComplex get(DoubleBuffer buffer, int index) {
        return new DoubleComplex(buffer, index);
    }

    /** @return the number at the start of {@code array} */
    public static DoubleComplex get(double[] array) {
        return new DoubleComplex(DoubleBuffer.wrap(array), 0);
    }

    /** @return number {@code index} of {@code array} */
    public static DoubleComplex get(double[] array, int index) {
        return new DoubleComplex(DoubleBuffer.wrap(array), index);
    }

    /** @return the number at the start of {@code buffer}, in the buffer's byte order */
    public static DoubleComplex get(ByteBuffer buffer) {
        return new DoubleComplex(buffer.asDoubleBuffer(), 0);
    }

    /** @return number {@code index} of {@code buffer}, in the buffer's byte order */
    public static DoubleComplex get(ByteBuffer buffer, int index) {
        return new DoubleComplex(buffer.asDoubleBuffer(), index);
    }

    /** @return the real part */
    public double getReal() {
        return buffer.get(offset);
    }

    /** @return the imaginary part */
    public double getImag() {
        return buffer.get(offset + 1);
    }

    /** @param real the real part */
    public void putReal(double real) {
        buffer.put(offset, real);
    }

    /** @param imag the imaginary part */
    public void putImag(double imag) {
        buffer.put(offset + 1, imag);
    }

    /** @return a buffer whose first element is this number's real part */
    public DoubleBuffer getBuffer() {
        return offset == 0 ? buffer : MPI.slice(buffer, offset);
    }
}
