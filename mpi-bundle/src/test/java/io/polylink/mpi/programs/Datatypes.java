package io.polylink.mpi.programs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import mpi.Datatype;
import mpi.DoubleInt;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;
import mpi.Struct;

/**
 * Derived datatypes on the wire: the sender describes scattered data with one type, the receiver
 * takes it into another layout, and every element lands where its type says. Also the pair types
 * and struct types over byte buffers, packing, and element counts of partial messages.
 */
public final class Datatypes {

    private Datatypes() {}

    /** A particle: an id, a mass and a position, in a byte buffer as a C struct would hold them. */
    public static final class Particle extends Struct {
        private final int id = addInt();
        private final int mass = addDouble();
        private final int position = addFloat(3);

        @Override
        protected Data newData() {
            return new Data();
        }

        /** Accessors of one particle. */
        public final class Data extends Struct.Data {
            public int getId() {
                return getInt(id);
            }

            public void putId(int v) {
                putInt(id, v);
            }

            public double getMass() {
                return getDouble(mass);
            }

            public void putMass(double v) {
                putDouble(mass, v);
            }

            public float getPosition(int i) {
                return getFloat(position, i);
            }

            public void putPosition(int i, float v) {
                putFloat(position, i, v);
            }
        }
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        int me = MPI.COMM_WORLD.getRank();

        // A column of a 4 x 5 row-major matrix, from the third column on.
        Datatype column = Datatype.createVector(4, 1, 5, MPI.DOUBLE);
        column.commit();
        assertEquals(4, column.getSize());
        assertEquals(16, column.getExtent());
        // Two blocks and a single element, at element displacements.
        Datatype indexed = Datatype.createIndexed(new int[] {2, 1, 3}, new int[] {0, 4, 7}, MPI.INT);
        indexed.commit();
        assertEquals(6, indexed.getSize());
        assertEquals(10, indexed.getExtent());
        // The same in bytes, and in blocks of one length.
        Datatype hindexed = Datatype.createHIndexed(new int[] {2, 1, 3}, new int[] {0, 16, 28}, MPI.INT);
        hindexed.commit();
        Datatype block = Datatype.createIndexedBlock(2, new int[] {1, 5}, MPI.SHORT);
        block.commit();
        // Every other column pair: a vector resized to one element, so copies interleave.
        Datatype strided = Datatype.createResized(Datatype.createVector(3, 1, 4, MPI.INT), 0, 4);
        strided.commit();
        assertEquals(1, strided.getExtent());
        assertEquals(9, strided.getTrueExtent());
        Particle particle = new Particle();
        assertEquals(24, particle.getExtent(), "fields follow each other, as Struct adds them");
        assertEquals(16, MPI.DOUBLE_INT.getExtent(), "{double, int} is padded to the double's alignment");
        assertEquals(12, MPI.DOUBLE_INT.getSize());

        if (me == 0) {
            double[] matrix = new double[20];
            for (int i = 0; i < 20; i++) {
                matrix[i] = i;
            }
            MPI.COMM_WORLD.send(MPI.slice(matrix, 2), 1, column, 1, 1);
            int[] ints = {10, 11, 12, 13, 14, 15, 16, 17, 18, 19};
            MPI.COMM_WORLD.send(ints, 1, indexed, 1, 2);
            MPI.COMM_WORLD.send(ints, 1, hindexed, 1, 3);
            MPI.COMM_WORLD.send(new short[] {0, 1, 2, 3, 4, 5, 6, 7}, 1, block, 1, 4);
            int[] grid = new int[12];
            for (int i = 0; i < 12; i++) {
                grid[i] = 100 + i;
            }
            MPI.COMM_WORLD.send(grid, 2, strided, 1, 5);

            ByteBuffer particles = MPI.newByteBuffer(3 * particle.getExtent());
            for (int i = 0; i < 3; i++) {
                Particle.Data p = particle.getData(particles, i);
                p.putId(i);
                p.putMass(1.5 * i);
                for (int k = 0; k < 3; k++) {
                    p.putPosition(k, i + k / 10f);
                }
            }
            MPI.COMM_WORLD.send(particles, 3, particle.getType(), 1, 6);

            ByteBuffer pairs = MPI.newByteBuffer(2 * MPI.DOUBLE_INT.getExtent());
            for (int i = 0; i < 2; i++) {
                DoubleInt.Data d = MPI.doubleInt.getData(pairs, i);
                d.putValue(i + 0.25);
                d.putIndex(i * 7);
            }
            MPI.COMM_WORLD.send(pairs, 2, MPI.DOUBLE_INT, 1, 7);

            byte[] packed = new byte[MPI.COMM_WORLD.packSize(1, MPI.INT) + MPI.COMM_WORLD.packSize(2, MPI.DOUBLE)];
            int at = MPI.COMM_WORLD.pack(new int[] {42}, 1, MPI.INT, packed, 0);
            at = MPI.COMM_WORLD.pack(new double[] {2.5, -1}, 2, MPI.DOUBLE, packed, at);
            assertEquals(packed.length, at);
            MPI.COMM_WORLD.send(packed, at, MPI.PACKED, 1, 8);

            MPI.COMM_WORLD.send(new int[] {1, 2, 3, 4, 5, 6, 7, 8}, 8, MPI.INT, 1, 9);
        } else if (me == 1) {
            DoubleBuffer col = DoubleBuffer.allocate(4);
            Status s = MPI.COMM_WORLD.recv(col, 4, MPI.DOUBLE, 0, 1);
            assertArrayEquals(new double[] {2, 7, 12, 17}, col.array(), "the third column");
            assertEquals(4, s.getCount(MPI.DOUBLE));
            assertEquals(1, s.getCount(column));

            int[] six = new int[6];
            MPI.COMM_WORLD.recv(six, 6, MPI.INT, 0, 2);
            assertArrayEquals(new int[] {10, 11, 14, 17, 18, 19}, six, "indexed");
            int[] spread = new int[10];
            MPI.COMM_WORLD.recv(spread, 1, indexed, 0, 3);
            assertArrayEquals(new int[] {10, 11, 0, 0, 14, 0, 0, 17, 18, 19}, spread, "hindexed into indexed");
            short[] shorts = new short[4];
            MPI.COMM_WORLD.recv(shorts, 4, MPI.SHORT, 0, 4);
            assertArrayEquals(new short[] {1, 2, 5, 6}, shorts, "indexed block");
            int[] columns = new int[6];
            MPI.COMM_WORLD.recv(columns, 6, MPI.INT, 0, 5);
            assertArrayEquals(new int[] {100, 104, 108, 101, 105, 109}, columns, "resized vectors interleave");

            ByteBuffer particles = MPI.newByteBuffer(3 * particle.getExtent());
            MPI.COMM_WORLD.recv(particles, 3, particle.getType(), 0, 6);
            for (int i = 0; i < 3; i++) {
                Particle.Data p = particle.getData(particles, i);
                assertEquals(i, p.getId());
                assertEquals(1.5 * i, p.getMass());
                assertEquals(i + 0.2f, p.getPosition(2));
            }

            ByteBuffer pairs = MPI.newByteBuffer(2 * MPI.DOUBLE_INT.getExtent());
            MPI.COMM_WORLD.recv(pairs, 2, MPI.DOUBLE_INT, 0, 7);
            DoubleInt.Data second = MPI.doubleInt.getData(pairs, 1);
            assertEquals(1.25, second.getValue());
            assertEquals(7, second.getIndex());

            byte[] packed = new byte[64];
            s = MPI.COMM_WORLD.recv(packed, 64, MPI.PACKED, 0, 8);
            int[] answer = new int[1];
            double[] pair = new double[2];
            int at = MPI.COMM_WORLD.unpack(packed, 0, answer, 1, MPI.INT);
            at = MPI.COMM_WORLD.unpack(packed, at, pair, 2, MPI.DOUBLE);
            assertEquals(s.getCount(MPI.PACKED), at);
            assertEquals(42, answer[0]);
            assertArrayEquals(new double[] {2.5, -1}, pair);

            int[] three = new int[9];
            Datatype triple = Datatype.createContiguous(3, MPI.INT);
            triple.commit();
            s = MPI.COMM_WORLD.recv(three, 3, triple, 0, 9);
            assertEquals(MPI.UNDEFINED, s.getCount(triple), "8 ints are not a whole number of triples");
            assertEquals(8, s.getElements(triple));
            assertEquals(8, s.getCount(MPI.INT));
        }

        Datatype loose = Datatype.createContiguous(2, MPI.INT);
        MPIException e = assertThrows(MPIException.class,
            () -> MPI.COMM_WORLD.send(new int[2], 1, loose, MPI.PROC_NULL, 0));
        assertEquals(MPI.ERR_TYPE, e.getErrorClass(), "an uncommitted type: " + e.getMessage());
        MPI.Finalize();
    }
}
