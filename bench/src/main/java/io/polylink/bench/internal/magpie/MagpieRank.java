package io.polylink.bench.internal.magpie;

import io.polylink.mpi.plogp.PLogPMeasurement;
import io.polylink.plogp.LinkModel;
import io.polylink.plogp.ModelDatabase;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import mpi.Info;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * A rank of {@code bench magpie}, in its cluster's namespace.
 *
 * <pre>
 * MagpieRank plogp MAX_SIZE TIME_MS WARMUP_MS FILE   two ranks: rank 0 writes the model of their link to FILE
 * MagpieRank bcast SIZES REPEAT WARM_UP             every rank: broadcasts from rank 0, each algorithm in turn
 * </pre>
 *
 * Every rank starts a timed broadcast at one instant the root names on the host's monotonic clock,
 * which every rank of this machine shares, and its time runs from that instant to the last rank's
 * return: {@code RESULT ALGORITHM SIZE REPETITION MICROS}.
 * Small broadcasts back to back come first, so that the JIT has compiled what the timed ones run,
 * and the first call of each algorithm and size is not timed (it plans the shape); {@code CHOICE}
 * lines say what each took.
 */
public final class MagpieRank {

    static final List<String> ALGORITHMS = List.of("magpie", "magpie-pipelined");
    /**
     * How far ahead the root sets a broadcast's start: time for its word to cross the sites, but
     * less than tcp's least retransmission timeout (200 ms), after which an idle connection starts
     * slow again (tcp_slow_start_after_idle) where the measured links streamed.
     */
    private static final long START_AHEAD_NANOS = 60_000_000L;
    /** How long before the start every rank stops parking and spins. */
    private static final long SPIN_NANOS = 3_000_000L;

    private MagpieRank() {}

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        if (args[0].equals("plogp")) {
            long max = Long.parseLong(args[1]);
            List<Long> sizes = new ArrayList<>();
            for (long m = 1; m <= max; m <<= 1) {
                sizes.add(m);
            }
            LinkModel model = new PLogPMeasurement(sizes, Duration.ofMillis(Long.parseLong(args[2])),
                Duration.ofMillis(Long.parseLong(args[3]))).measure(MPI.COMM_WORLD, 0, 1);
            if (MPI.COMM_WORLD.getRank() == 0) {
                ModelDatabase.of(List.of(model)).write(Path.of(args[4]));
            }
        } else {
            broadcasts(Arrays.stream(args[1].split(",")).mapToInt(Integer::parseInt).toArray(),
                Integer.parseInt(args[2]), Integer.parseInt(args[3]));
        }
        MPI.Finalize();
    }

    /** @param warmUp small broadcasts of each algorithm before the timed ones */
    private static void broadcasts(int[] sizes, int repeat, int warmUp) throws MPIException {
        Intracomm world = MPI.COMM_WORLD;
        Intracomm[] comms = new Intracomm[ALGORITHMS.size()];
        for (int a = 0; a < comms.length; a++) {
            Info info = new Info();
            info.set("polylink.coll.bcast", ALGORITHMS.get(a));
            comms[a] = world.dupWithInfo(info);
        }
        int largest = Arrays.stream(sizes).max().orElse(1);
        ByteBuffer data = MPI.newByteBuffer(Math.max(1, largest));
        long[] end = new long[1];
        long[] last = new long[1];
        // Calls back to back, so that the JIT has compiled the send and receive paths before any is
        // timed: a path used once per timed call stays interpreted (docs/performance-notes.md#magpie-testbed).
        for (int i = 0; i < warmUp; i++) {
            for (Intracomm c : comms) {
                c.bcast(data, Math.min(1024, Math.max(1, largest)), MPI.BYTE, 0);
                c.bcast(end, 1, MPI.LONG, 0);
                c.reduce(end, last, 1, MPI.LONG, MPI.MAX, 0);
            }
        }
        for (int size : sizes) {
            for (int a = 0; a < comms.length; a++) {
                comms[a].bcast(data, size, MPI.BYTE, 0);
                if (world.getRank() == 0) {
                    System.out.println("CHOICE " + ALGORITHMS.get(a) + " " + size + " "
                        + comms[a].getInfo().get("polylink.collectives"));
                }
            }
            for (int rep = 0; rep < repeat; rep++) {
                for (int a = 0; a < comms.length; a++) {
                    // Every rank starts at one instant of the host's clock, which all of them read:
                    // the root names it far enough ahead for the slowest rank to hear it.
                    long[] start = {System.nanoTime() + START_AHEAD_NANOS};
                    comms[a].bcast(start, 1, MPI.LONG, 0);
                    // Parked until just before it, then spinning: a parked thread wakes a millisecond
                    // late on a busy host, and the root's lateness would count as the broadcast's.
                    for (long wait = start[0] - SPIN_NANOS - System.nanoTime(); wait > 0;
                         wait = start[0] - SPIN_NANOS - System.nanoTime()) {
                        java.util.concurrent.locks.LockSupport.parkNanos(wait);
                    }
                    while (System.nanoTime() - start[0] < 0) {
                        Thread.onSpinWait();
                    }
                    comms[a].bcast(data, size, MPI.BYTE, 0);
                    end[0] = System.nanoTime();
                    comms[a].reduce(end, last, 1, MPI.LONG, MPI.MAX, 0);
                    if (world.getRank() == 0) {
                        System.out.printf(java.util.Locale.ROOT, "RESULT %s %d %d %.1f%n", ALGORITHMS.get(a), size, rep,
                            (last[0] - start[0]) / 1000.0);
                    }
                }
            }
        }
        for (Intracomm c : comms) {
            c.free();
        }
    }
}
