package io.polylink.mpi.programs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;

/**
 * Large messages that must be packed (doubles of a Java array, a strided datatype) go to a rank of
 * the same host through a bounce buffer of the sender's, which the receiver reads where it lies:
 * every one arrives whole and in order, the sender reuses one buffer for messages of one size
 * after another, and a message larger than the largest a bounce buffer takes goes in chunks. The
 * receiving rank mapped the sender's bounce file read-only.
 */
public final class BouncedMessages {

    private static final int DOUBLES = 160_000;
    private static final int SENDS = 20;
    /** 3.2 MB, past the largest message packed into a bounce buffer (2 MiB): goes in chunks. */
    private static final int HUGE = 400_000;
    /** Packed into 1.2 MB, a bounce buffer of the same size as the doubles' 1.28 MB. */
    private static final int STRIDED = 300_000;

    private BouncedMessages() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        int me = MPI.COMM_WORLD.getRank();
        Datatype everyOther = Datatype.createVector(STRIDED, 1, 2, MPI.INT);
        everyOther.commit();
        if (me == 0) {
            Set<String> before = SharedFiles.own();
            double[] values = new double[DOUBLES];
            Set<String> made = null;
            for (int s = 0; s < SENDS; s++) {
                for (int i = 0; i < DOUBLES; i++) {
                    values[i] = s * 1e6 + i * 0.5;
                }
                MPI.COMM_WORLD.send(values, DOUBLES, MPI.DOUBLE, 1, s);
                if (s == 0) {
                    made = SharedFiles.own();
                    made.removeAll(before);
                    assertEquals(1, made.size(), "one bounce buffer for the first message: " + made);
                }
            }
            int[] ints = new int[2 * STRIDED];
            for (int i = 0; i < ints.length; i++) {
                ints[i] = i * 7 - 3;
            }
            MPI.COMM_WORLD.send(ints, 1, everyOther, 1, SENDS);
            double[] huge = new double[HUGE];
            huge[0] = 1.5;
            huge[HUGE - 1] = -2.5;
            MPI.COMM_WORLD.send(huge, HUGE, MPI.DOUBLE, 1, SENDS + 1);
            Set<String> after = SharedFiles.own();
            after.removeAll(before);
            assertEquals(made, after, "one bounce buffer, reused, for messages of one size after another");
            byte[] names = String.join("\n", made).getBytes(StandardCharsets.UTF_8);
            MPI.COMM_WORLD.send(new int[] {names.length}, 1, MPI.INT, 1, SENDS + 2);
            MPI.COMM_WORLD.send(names, names.length, MPI.BYTE, 1, SENDS + 3);
        } else if (me == 1) {
            double[] values = new double[DOUBLES];
            for (int s = 0; s < SENDS; s++) {
                MPI.COMM_WORLD.recv(values, DOUBLES, MPI.DOUBLE, 0, s);
                for (int i = 0; i < DOUBLES; i++) {
                    assertEquals(s * 1e6 + i * 0.5, values[i], "double " + i + " of message " + s);
                }
            }
            int[] ints = new int[STRIDED];
            MPI.COMM_WORLD.recv(ints, STRIDED, MPI.INT, 0, SENDS);
            for (int i = 0; i < STRIDED; i++) {
                assertEquals(2 * i * 7 - 3, ints[i], "int " + i + " of a strided message");
            }
            double[] huge = new double[HUGE];
            MPI.COMM_WORLD.recv(huge, HUGE, MPI.DOUBLE, 0, SENDS + 1);
            double[] expected = new double[HUGE];
            expected[0] = 1.5;
            expected[HUGE - 1] = -2.5;
            assertArrayEquals(expected, huge, "a message too large for a bounce buffer");
            int[] length = new int[1];
            MPI.COMM_WORLD.recv(length, 1, MPI.INT, 0, SENDS + 2);
            byte[] names = new byte[length[0]];
            MPI.COMM_WORLD.recv(names, names.length, MPI.BYTE, 0, SENDS + 3);
            List<String> files = List.of(new String(names, StandardCharsets.UTF_8).split("\n"));
            Set<String> mapped = SharedFiles.readOnly();
            for (String f : files) {
                assertTrue(mapped.contains(f), "the sender's bounce buffer " + f + " mapped read-only here: " + mapped);
            }
        }
        everyOther.free();
        MPI.Finalize();
    }
}
