package io.polylink.mpi.programs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import mpi.MPI;
import mpi.MPIException;

/**
 * Large messages from buffers of {@code MPI.newByteBuffer} and its typed siblings, and slices of
 * them, arrive whole and in order into buffers and arrays of every kind. With argument
 * {@code shared}, each went in one copy: the receiving rank mapped the sending rank's buffer file
 * read-only. With {@code gone}, the sender deletes its buffers' files before it sends, as if the
 * receiver were on another host, and every message still arrives.
 */
public final class SharedBuffers {

    private static final int BYTES = 1 << 20;
    private static final int DOUBLES = 160_000;
    private static final int SLICED = 1000;

    private SharedBuffers() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        String mode = args.length > 0 ? args[0] : "";
        int me = MPI.COMM_WORLD.getRank();
        if (me == 0) {
            Set<String> before = SharedFiles.own();
            ByteBuffer bytes = MPI.newByteBuffer(BYTES);
            DoubleBuffer doubles = MPI.newDoubleBuffer(DOUBLES);
            Set<String> files = SharedFiles.own();
            files.removeAll(before);
            assertEquals(2, files.size(), "files of the two buffers, mapped by this rank: " + files);
            for (int i = 0; i < BYTES; i++) {
                bytes.put(i, (byte) (i * 31 + 7));
            }
            for (int i = 0; i < DOUBLES; i++) {
                doubles.put(i, i * 0.5);
            }
            if (mode.equals("gone")) {
                for (String f : files) {
                    delete(Path.of(f));
                }
            }
            byte[] names = String.join("\n", files).getBytes(StandardCharsets.UTF_8);
            MPI.COMM_WORLD.send(new int[] {names.length}, 1, MPI.INT, 1, 0);
            MPI.COMM_WORLD.send(names, names.length, MPI.BYTE, 1, 0);
            MPI.COMM_WORLD.send(bytes, BYTES, MPI.BYTE, 1, 1);
            MPI.COMM_WORLD.send(bytes, BYTES, MPI.BYTE, 1, 2);
            MPI.COMM_WORLD.send(doubles, DOUBLES, MPI.DOUBLE, 1, 3);
            MPI.COMM_WORLD.send(MPI.slice(bytes, SLICED), BYTES - SLICED, MPI.BYTE, 1, 4);
            MPI.COMM_WORLD.send(MPI.slice(doubles, SLICED), DOUBLES - SLICED, MPI.DOUBLE, 1, 5);
            MPI.COMM_WORLD.send(bytes, BYTES, MPI.BYTE, 1, 6); // into a buffer too small: truncated
        } else if (me == 1) {
            int[] length = new int[1];
            MPI.COMM_WORLD.recv(length, 1, MPI.INT, 0, 0);
            byte[] names = new byte[length[0]];
            MPI.COMM_WORLD.recv(names, names.length, MPI.BYTE, 0, 0);
            List<String> files = List.of(new String(names, StandardCharsets.UTF_8).split("\n"));

            ByteBuffer into = MPI.newByteBuffer(BYTES);
            MPI.COMM_WORLD.recv(into, BYTES, MPI.BYTE, 0, 1);
            for (int i = 0; i < BYTES; i++) {
                assertEquals((byte) (i * 31 + 7), into.get(i), "byte " + i + " into a direct buffer");
            }
            byte[] array = new byte[BYTES];
            MPI.COMM_WORLD.recv(array, BYTES, MPI.BYTE, 0, 2);
            for (int i = 0; i < BYTES; i++) {
                assertEquals((byte) (i * 31 + 7), array[i], "byte " + i + " into an array");
            }
            double[] values = new double[DOUBLES];
            MPI.COMM_WORLD.recv(values, DOUBLES, MPI.DOUBLE, 0, 3);
            for (int i = 0; i < DOUBLES; i++) {
                assertEquals(i * 0.5, values[i], "double " + i + " into an array");
            }
            MPI.COMM_WORLD.recv(array, BYTES - SLICED, MPI.BYTE, 0, 4);
            for (int i = 0; i < BYTES - SLICED; i++) {
                assertEquals((byte) ((i + SLICED) * 31 + 7), array[i], "byte " + i + " of a slice");
            }
            DoubleBuffer typed = MPI.newDoubleBuffer(DOUBLES);
            MPI.COMM_WORLD.recv(typed, DOUBLES - SLICED, MPI.DOUBLE, 0, 5);
            for (int i = 0; i < DOUBLES - SLICED; i++) {
                assertEquals((i + SLICED) * 0.5, typed.get(i), "double " + i + " of a slice, into a double buffer");
            }
            byte[] small = new byte[BYTES / 2];
            MPIException truncated = assertThrows(MPIException.class,
                () -> MPI.COMM_WORLD.recv(small, BYTES / 2, MPI.BYTE, 0, 6));
            assertEquals(MPI.ERR_TRUNCATE, truncated.getErrorClass(), truncated.getMessage());
            for (int i = 0; i < BYTES / 2; i++) {
                assertEquals((byte) (i * 31 + 7), small[i], "byte " + i + " of a truncated message");
            }
            Set<String> mapped = SharedFiles.readOnly();
            for (String f : files) {
                if (mode.equals("shared")) {
                    assertTrue(mapped.contains(f), "the sender's buffer " + f + " mapped read-only here: " + mapped);
                } else {
                    assertTrue(mapped.stream().noneMatch(m -> m.startsWith(f)), "a deleted file mapped: " + mapped);
                }
            }
        }
        MPI.Finalize();
    }

    private static void delete(Path file) {
        try {
            Files.delete(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
