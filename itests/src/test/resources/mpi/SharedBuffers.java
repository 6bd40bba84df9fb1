import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import mpi.MPI;
import mpi.MPIException;

/**
 * Rank 0 sends rank 1 large messages from buffers of MPI.newByteBuffer and MPI.newDoubleBuffer;
 * rank 1 checks every value and that it read them where they lie: the files of rank 0's buffers,
 * which rank 0 names first, are mapped read-only in rank 1's process. Prints one line saying so.
 */
public class SharedBuffers {

    private static final int BYTES = 4 << 20;
    private static final int DOUBLES = 300_000;

    public static void main(String[] args) throws MPIException, IOException {
        MPI.Init(args);
        int me = MPI.COMM_WORLD.getRank();
        if (me == 0) {
            Set<String> before = mapped("rw-s");
            ByteBuffer bytes = MPI.newByteBuffer(BYTES);
            DoubleBuffer doubles = MPI.newDoubleBuffer(DOUBLES);
            Set<String> files = mapped("rw-s");
            files.removeAll(before);
            for (int i = 0; i < BYTES; i++) {
                bytes.put(i, (byte) (i * 13 + 5));
            }
            for (int i = 0; i < DOUBLES; i++) {
                doubles.put(i, i + 0.25);
            }
            byte[] names = String.join("\n", files).getBytes(StandardCharsets.UTF_8);
            MPI.COMM_WORLD.send(new int[] {names.length}, 1, MPI.INT, 1, 0);
            MPI.COMM_WORLD.send(names, names.length, MPI.BYTE, 1, 0);
            MPI.COMM_WORLD.send(bytes, BYTES, MPI.BYTE, 1, 1);
            MPI.COMM_WORLD.send(doubles, DOUBLES, MPI.DOUBLE, 1, 2);
        } else if (me == 1) {
            int[] length = new int[1];
            MPI.COMM_WORLD.recv(length, 1, MPI.INT, 0, 0);
            byte[] names = new byte[length[0]];
            MPI.COMM_WORLD.recv(names, names.length, MPI.BYTE, 0, 0);
            List<String> files = List.of(new String(names, StandardCharsets.UTF_8).split("\n"));
            byte[] bytes = new byte[BYTES];
            MPI.COMM_WORLD.recv(bytes, BYTES, MPI.BYTE, 0, 1);
            for (int i = 0; i < BYTES; i++) {
                if (bytes[i] != (byte) (i * 13 + 5)) {
                    throw new IllegalStateException("byte " + i + " is " + bytes[i]);
                }
            }
            DoubleBuffer doubles = MPI.newDoubleBuffer(DOUBLES);
            MPI.COMM_WORLD.recv(doubles, DOUBLES, MPI.DOUBLE, 0, 2);
            for (int i = 0; i < DOUBLES; i++) {
                if (doubles.get(i) != i + 0.25) {
                    throw new IllegalStateException("double " + i + " is " + doubles.get(i));
                }
            }
            Set<String> readOnly = mapped("r--s");
            if (files.size() != 2 || !readOnly.containsAll(files)) {
                throw new IllegalStateException("rank 0's buffers " + files + " are not all mapped here read-only: "
                    + readOnly);
            }
            System.out.println("shared buffers: " + BYTES + " bytes and " + DOUBLES + " doubles read where rank 0's "
                + "buffers lie");
        }
        MPI.Finalize();
    }

    /** @return the shared buffer files this process maps with {@code permissions} */
    private static Set<String> mapped(String permissions) throws IOException {
        Set<String> files = new HashSet<>();
        for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
            String[] f = line.trim().split("\\s+", 6);
            if (f.length == 6 && f[1].equals(permissions) && Path.of(f[5]).getFileName().toString().startsWith("mpi-")) {
                files.add(f[5]);
            }
        }
        return files;
    }
}
