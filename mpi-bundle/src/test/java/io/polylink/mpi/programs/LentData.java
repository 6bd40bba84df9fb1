package io.polylink.mpi.programs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.util.Arrays;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Large messages whose data lies in memory as the wire carries it (bytes in an array or a buffer,
 * ints in a buffer of the wire's byte order) go from where they lie, lent to their chunks, and an
 * int array's are packed into staged buffers lent in turn, and an eager message's of 40 KB into
 * the message; either way a send completes only once its buffer is free again. Each
 * round the sender overwrites its buffer the moment the send completes, and the receiver must
 * find that round's data: a send that completed while its link could still read the buffer, to
 * send a chunk again, would show here as another round's bytes.
 */
public final class LentData {

    private static final int BYTES = 1 << 20;
    /** Eager, and larger than a context copies: the context keeps the message's own bytes. */
    private static final int EAGER_INTS = 10_000;
    private static final int ROUNDS = 6;

    private LentData() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        int me = MPI.COMM_WORLD.getRank();
        byte[] array = new byte[BYTES];
        ByteBuffer direct = MPI.newByteBuffer(BYTES);
        IntBuffer ints = MPI.newIntBuffer(BYTES / 4);
        int[] intArray = new int[BYTES / 4];
        int[] eager = new int[EAGER_INTS];
        if (me == 0) {
            for (int round = 0; round < ROUNDS; round++) {
                fill(array, round);
                MPI.COMM_WORLD.send(array, BYTES, MPI.BYTE, 1, round);
                fill(array, -1);
                direct.put(0, pattern(round + 100));
                Request r = MPI.COMM_WORLD.iSend(direct, BYTES, MPI.BYTE, 1, round);
                r.waitFor();
                direct.put(0, pattern(-1));
                for (int i = 0; i < BYTES / 4; i++) {
                    ints.put(i, i * 31 + round);
                    intArray[i] = i * 17 - round;
                }
                MPI.COMM_WORLD.iSend(ints, BYTES / 4, MPI.INT, 1, round).waitFor();
                MPI.COMM_WORLD.send(intArray, BYTES / 4, MPI.INT, 1, round);
                for (int i = 0; i < BYTES / 4; i++) {
                    ints.put(i, -7);
                    intArray[i] = -7;
                }
                for (int i = 0; i < EAGER_INTS; i++) {
                    eager[i] = i * 13 + round;
                }
                MPI.COMM_WORLD.send(eager, EAGER_INTS, MPI.INT, 1, round);
                Arrays.fill(eager, -7);
            }
        } else if (me == 1) {
            byte[] got = new byte[BYTES];
            for (int round = 0; round < ROUNDS; round++) {
                MPI.COMM_WORLD.recv(got, BYTES, MPI.BYTE, 0, round);
                assertArrayEquals(pattern(round), got, "round " + round + ", array");
                MPI.COMM_WORLD.recv(direct, BYTES, MPI.BYTE, 0, round);
                direct.get(0, got);
                assertArrayEquals(pattern(round + 100), got, "round " + round + ", direct buffer");
                MPI.COMM_WORLD.recv(ints, BYTES / 4, MPI.INT, 0, round);
                MPI.COMM_WORLD.recv(intArray, BYTES / 4, MPI.INT, 0, round);
                for (int i = 0; i < BYTES / 4; i++) {
                    if (ints.get(i) != i * 31 + round || intArray[i] != i * 17 - round) {
                        assertEquals(i * 31 + round, ints.get(i), "round " + round + ", int buffer at " + i);
                        assertEquals(i * 17 - round, intArray[i], "round " + round + ", int array at " + i);
                    }
                }
                MPI.COMM_WORLD.recv(eager, EAGER_INTS, MPI.INT, 0, round);
                for (int i = 0; i < EAGER_INTS; i++) {
                    assertEquals(i * 13 + round, eager[i], "round " + round + ", eager int array at " + i);
                }
            }
        }
        // Both ways at once: each rank lends its array while it receives into the other.
        byte[] out = new byte[BYTES];
        byte[] in = new byte[BYTES];
        int peer = 1 - me;
        for (int round = 0; round < ROUNDS; round++) {
            fill(out, round * 2 + me);
            MPI.COMM_WORLD.sendRecv(out, BYTES, MPI.BYTE, peer, round, in, BYTES, MPI.BYTE, peer, round);
            fill(out, -1);
            assertArrayEquals(pattern(round * 2 + peer), in, "round " + round + " of the exchange");
        }
        MPI.Finalize();
    }

    private static void fill(byte[] bytes, int round) {
        System.arraycopy(pattern(round), 0, bytes, 0, BYTES);
    }

    private static byte[] pattern(int round) {
        byte[] bytes = new byte[BYTES];
        long x = round * 0x9E3779B97F4A7C15L + 5;
        for (int i = 0; i < BYTES; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            bytes[i] = (byte) (x >>> 56);
        }
        return bytes;
    }
}
