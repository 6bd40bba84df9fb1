package io.polylink.mpi.programs.coll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.mpi.programs.SharedFiles;
import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.util.HashSet;
import java.util.Set;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Broadcasts larger than a slot among ranks of one host, which read the root's data in memory they
 * share: from arrays the root packs into a bounce buffer as the others read it, from shared direct
 * buffers read where they lie, from ordinary direct buffers, into arrays, buffers and a strided
 * type of the receivers' own; every root; sizes from just over a slot to several MiB; hundreds of
 * calls in a row whose data changes each call, with small calls between, and as many again with
 * no bounce buffer made for them; a rank that cannot map the root's buffer (its file deleted),
 * which gets the data by message; a receiver whose buffer is too small, which fails alone.
 */
public final class Spreads {

    private static final String SPREAD = "shared-memory";
    private static final int[] SIZES = {1025, 4096, 16 * 1024 + 8, 65536, 1 << 20, (3 << 20) + 12};

    private Spreads() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int n = world.getSize();
        int me = world.getRank();

        unreadable(world); // first, while this rank's only shared file is the buffer's
        for (int size : SIZES) {
            for (int root = 0; root < n; root++) {
                byte[] data = me == root ? bytes(size, root, 0) : new byte[size];
                world.bcast(data, size, MPI.BYTE, root);
                assertEquals(0, java.util.Arrays.compare(bytes(size, root, 0), data), size + " bytes from rank " + root);
                String chosen = world.getInfo().get("polylink.collectives");
                boolean byMessages = n == 2 && size < 16 * 1024;
                assertTrue(byMessages ? chosen.contains("bcast: binomial (" + SPREAD + " refused: between two ranks")
                    : chosen.contains("bcast: " + SPREAD + " ("), size + " bytes from an array: " + chosen);
            }
        }

        kinds(world);
        manyInARow(world);
        Set<String> before = ownFiles();
        manyInARow(world);
        // Fewer files may be left: shared buffers made above go once they are collected.
        Set<String> made = ownFiles();
        made.removeAll(before);
        assertEquals(Set.of(), made,
            "new files after hundreds more broadcasts, which the bounce buffers there were should carry");
        tooSmall(world);
        world.barrier();
        System.out.println("spreads: rank " + me + " of " + n + " done");
        MPI.Finalize();
    }

    /** Doubles from arrays, shared and ordinary direct buffers, into each of those and a strided type. */
    private static void kinds(Intracomm world) throws MPIException {
        int me = world.getRank();
        int count = 40_000;
        for (int root = 0; root < world.getSize(); root++) {
            double[] expected = doubles(count, root);
            for (int from = 0; from < 3; from++) {
                for (int into = 0; into < 4; into++) {
                    boolean rooted = me == root;
                    int kind = rooted ? from : into;
                    Object buf;
                    Datatype type = MPI.DOUBLE;
                    int elements = count;
                    if (kind == 0) {
                        buf = rooted ? expected.clone() : new double[count];
                    } else if (kind == 1 || kind == 2) {
                        DoubleBuffer b = kind == 1 ? MPI.newDoubleBuffer(count)
                            : ByteBuffer.allocateDirect(count * 8).order(java.nio.ByteOrder.nativeOrder()).asDoubleBuffer();
                        if (rooted) {
                            b.put(expected).clear();
                        }
                        buf = b;
                    } else {
                        type = Datatype.createVector(count, 1, 2, MPI.DOUBLE);
                        type.commit();
                        buf = new double[2 * count];
                        elements = 1;
                    }
                    world.bcast(buf, elements, type, root);
                    for (int i = 0; i < count; i++) {
                        double got = kind == 3 ? ((double[]) buf)[2 * i] : kind == 0 ? ((double[]) buf)[i]
                            : ((DoubleBuffer) buf).get(i);
                        if (got != expected[i]) {
                            throw new AssertionError("double " + i + " from rank " + root + " (" + from + " into "
                                + into + "): " + got + " instead of " + expected[i]);
                        }
                    }
                    if (kind == 3) {
                        type.free();
                    }
                }
            }
        }
    }

    /** Hundreds of broadcasts in a row, each of other data, roots and sizes, some small ones between. */
    private static void manyInARow(Intracomm world) throws MPIException {
        int n = world.getSize();
        int me = world.getRank();
        for (int call = 0; call < 300; call++) {
            int root = (call * 7) % n;
            int size = SIZES[call % (SIZES.length - 1)] + call;
            byte[] data = me == root ? bytes(size, root, call) : new byte[size];
            world.bcast(data, size, MPI.BYTE, root);
            if (java.util.Arrays.compare(bytes(size, root, call), data) != 0) {
                throw new AssertionError("call " + call + ": " + size + " bytes from rank " + root + " differ");
            }
            if (call % 5 == 0) {
                int[] small = {me == root ? call : -1};
                world.bcast(small, 1, MPI.INT, root);
                assertEquals(call, small[0], "a small broadcast between large ones");
            }
        }
    }

    /**
     * The root's shared buffer loses its file before any rank mapped it, as if the ranks could not
     * share it: every rank still gets the data, by message.
     */
    private static void unreadable(Intracomm world) throws MPIException {
        int me = world.getRank();
        int bytes = 1 << 20;
        byte[] expected = bytes(bytes, 0, 1);
        if (me == 0) {
            // The ranks of a test share a process: only this one makes a buffer meanwhile.
            ByteBuffer buffer = SharedFiles.unmappable(() -> MPI.newByteBuffer(bytes));
            buffer.put(expected).clear();
            world.bcast(buffer, bytes, MPI.BYTE, 0);
        } else {
            byte[] got = new byte[bytes];
            world.bcast(got, bytes, MPI.BYTE, 0);
            assertEquals(0, java.util.Arrays.compare(expected, got), "1 MiB from a buffer no rank could map");
        }
        assertTrue(world.getInfo().get("polylink.collectives").contains("bcast: " + SPREAD),
            world.getInfo().get("polylink.collectives"));
    }

    /** A receiver whose buffer is too small fails with MPI_ERR_TRUNCATE; the others get the data. */
    private static void tooSmall(Intracomm world) throws MPIException {
        Intracomm c = world.dup();
        c.setErrhandler(MPI.ERRORS_RETURN);
        int me = c.getRank();
        int bytes = 64 * 1024;
        int mine = me == 1 ? bytes / 2 : bytes;
        byte[] data = me == 0 ? bytes(bytes, 0, 2) : new byte[mine];
        if (me == 1) {
            MPIException e = assertThrows(MPIException.class, () -> c.bcast(data, mine, MPI.BYTE, 0));
            assertEquals(MPI.ERR_TRUNCATE, e.getErrorClass(), e.getMessage());
            assertTrue(e.getMessage().contains("do not fit"), e.getMessage());
        } else {
            c.bcast(data, mine, MPI.BYTE, 0);
            assertEquals(0, java.util.Arrays.compare(bytes(bytes, 0, 2), data), "64 KiB beside a receiver too small");
        }
        byte[] next = me == 0 ? bytes(bytes, 0, 3) : new byte[bytes];
        c.bcast(next, bytes, MPI.BYTE, 0);
        assertEquals(0, java.util.Arrays.compare(bytes(bytes, 0, 3), next), "the broadcast after");
        c.free();
    }

    private static Set<String> ownFiles() {
        Set<String> files = new HashSet<>();
        for (String f : SharedFiles.own()) {
            if (!f.endsWith("(deleted)")) {
                files.add(f);
            }
        }
        return files;
    }

    private static byte[] bytes(int size, int root, int call) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = (byte) (i * 31 + root * 7 + call * 13 + (i >>> 11));
        }
        return b;
    }

    private static double[] doubles(int count, int root) {
        double[] d = new double[count];
        for (int i = 0; i < count; i++) {
            d[i] = i * 0.25 + root;
        }
        return d;
    }
}
