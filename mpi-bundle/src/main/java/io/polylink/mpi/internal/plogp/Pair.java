package io.polylink.mpi.internal.plogp;

import io.polylink.plogp.LinkModel;
import io.polylink.plogp.ModelDatabase;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import mpi.Info;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * The two ranks of a measurement on a communicator of their own: rank 0 the measurer, rank 1 the
 * mirror, which carries out the measurer's commands until told to stop. The model then travels
 * to the mirror, so both return it.
 */
public final class Pair {

    /** The link hints a measurement's communicator takes over from the one it was made from. */
    private static final List<String> HINTS = List.of("polylink.stack", "polylink.prefer", "polylink.forbid");

    private Pair() {}

    /** See {@link io.polylink.mpi.plogp.PLogPMeasurement#measure}. */
    public static LinkModel measure(Intracomm comm, int measurer, int mirror, long[] sizes, long timeNanos,
                                    long warmUpNanos) throws MPIException {
        int size = comm.getSize();
        if (measurer == mirror || measurer < 0 || mirror < 0 || measurer >= size || mirror >= size) {
            throw new IllegalArgumentException("a measurement is between two different ranks of the communicator's "
                + size + ", not " + measurer + " and " + mirror);
        }
        int me = comm.getRank();
        boolean in = me == measurer || me == mirror;
        Intracomm pair = comm.split(in ? 0 : MPI.UNDEFINED, me == measurer ? 0 : 1);
        if (!in) {
            return null;
        }
        try {
            Info parent = comm.getInfo();
            Info hints = new Info();
            for (String key : HINTS) {
                String value = parent.get(key);
                if (value != null) {
                    hints.set(key, value);
                }
            }
            pair.setInfo(hints);
            Info info = pair.getInfo();
            String stack = info.get("polylink.stacks").split(",")[1 - pair.getRank()];
            String location = info.get("polylink.locations").split(",")[1 - pair.getRank()];
            String[] hosts = hosts(pair);
            if (pair.getRank() == 0) {
                LinkModel model = new Measurer(pair, sizes, timeNanos, warmUpNanos)
                    .run(ModelDatabase.location(location), stack, hosts[0] + " - " + hosts[1]);
                String text = ModelDatabase.of(List.of(model)).format();
                byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
                pair.send(new int[] {bytes.length}, 1, MPI.INT, 1, Protocol.RESULT);
                pair.send(bytes, bytes.length, MPI.BYTE, 1, Protocol.RESULT);
                return ModelDatabase.parse(text).models().get(0); // as the mirror reads it, to the same digit
            }
            new Mirror(pair, sizes).run();
            int[] length = new int[1];
            pair.recv(length, 1, MPI.INT, 0, Protocol.RESULT);
            byte[] text = new byte[length[0]];
            pair.recv(text, text.length, MPI.BYTE, 0, Protocol.RESULT);
            return ModelDatabase.parse(new String(text, StandardCharsets.UTF_8)).models().get(0);
        } finally {
            pair.free();
        }
    }

    /** @return the hosts of rank 0 and rank 1 of {@code pair}, by their names */
    private static String[] hosts(Intracomm pair) throws MPIException {
        byte[] mine = MPI.getProcessorName().replaceAll("[\\t\\r\\n]", " ").getBytes(StandardCharsets.UTF_8);
        byte[] name = Arrays.copyOf(mine, Math.min(mine.length, 80));
        int[] lengths = new int[2];
        pair.allGather(new int[] {name.length}, 1, MPI.INT, lengths, 1, MPI.INT);
        byte[] other = new byte[lengths[1 - pair.getRank()]];
        int peer = 1 - pair.getRank();
        pair.sendRecv(name, name.length, MPI.BYTE, peer, Protocol.HOSTS, other, other.length, MPI.BYTE, peer,
            Protocol.HOSTS);
        String a = new String(name, StandardCharsets.UTF_8);
        String b = new String(other, StandardCharsets.UTF_8);
        return pair.getRank() == 0 ? new String[] {a, b} : new String[] {b, a};
    }
}
