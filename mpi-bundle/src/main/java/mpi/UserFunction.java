package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A user's reduction function ({@code MPI_User_function}) for {@link Op#Op(UserFunction, boolean)}:
 * combines {@code count} elements of one vector into another. Override one of the two
 * {@code call} methods: the buffer one by default copies the data into arrays of the datatype's
 * base type and calls the array one.
 */
public abstract class UserFunction {

    /**
     * Combines {@code inVec}'s elements into {@code inOutVec}'s.
     *
     * @param inVec an array of the datatype's base type
     * @param inOutVec an array of the same type, the accumulator
     * @param count the number of datatype elements
     * @param datatype their datatype
     * @throws MPIException if the combination fails
     */
    public void call(Object inVec, Object inOutVec, int count, Datatype datatype) throws MPIException {
        throw new UnsupportedOperationException(getClass().getName() + " overrides neither call method of UserFunction");
    }

    /**
     * Combines {@code in}'s elements into {@code inOut}'s, by the array {@code call}.
     *
     * @param in direct buffer of the elements to combine
     * @param inOut direct buffer of the accumulator
     * @param count the number of datatype elements
     * @param datatype their datatype
     * @throws MPIException if the combination fails
     */
    public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype datatype) throws MPIException {
        ByteBuffer a = in.duplicate().order(ByteOrder.nativeOrder()).clear();
        ByteBuffer b = inOut.duplicate().order(ByteOrder.nativeOrder()).clear();
        int n = count * datatype.getExtent();
        switch (datatype.baseType) {
            case Datatype.BYTE, Datatype.PACKED -> {
                byte[] x = new byte[n];
                byte[] y = new byte[n];
                a.get(x);
                b.get(y);
                call(x, y, count, datatype);
                b.clear();
                b.put(y);
            }
            case Datatype.CHAR -> {
                char[] x = new char[n];
                char[] y = new char[n];
                a.asCharBuffer().get(x);
                b.asCharBuffer().get(y);
                call(x, y, count, datatype);
                b.asCharBuffer().put(y);
            }
            case Datatype.SHORT -> {
                short[] x = new short[n];
                short[] y = new short[n];
                a.asShortBuffer().get(x);
                b.asShortBuffer().get(y);
                call(x, y, count, datatype);
                b.asShortBuffer().put(y);
            }
            case Datatype.INT -> {
                int[] x = new int[n];
                int[] y = new int[n];
                a.asIntBuffer().get(x);
                b.asIntBuffer().get(y);
                call(x, y, count, datatype);
                b.asIntBuffer().put(y);
            }
            case Datatype.LONG -> {
                long[] x = new long[n];
                long[] y = new long[n];
                a.asLongBuffer().get(x);
                b.asLongBuffer().get(y);
                call(x, y, count, datatype);
                b.asLongBuffer().put(y);
            }
            case Datatype.FLOAT -> {
                float[] x = new float[n];
                float[] y = new float[n];
                a.asFloatBuffer().get(x);
                b.asFloatBuffer().get(y);
                call(x, y, count, datatype);
                b.asFloatBuffer().put(y);
            }
            case Datatype.DOUBLE -> {
                double[] x = new double[n];
                double[] y = new double[n];
                a.asDoubleBuffer().get(x);
                b.asDoubleBuffer().get(y);
                call(x, y, count, datatype);
                b.asDoubleBuffer().put(y);
            }
            default -> throw new IllegalArgumentException("no array call for the datatype's base type");
        }
    }
}
