package io.polylink.bench.internal.mpi;

import io.polylink.bench.internal.Sizes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The options of {@code bench mpi}; see {@link #HELP}.
 *
 * @param impls the implementations, in the order each run measures them
 * @param tests latency, bw, overlap (two ranks), barrier, bcast, reduce, allreduce, alltoall: which to measure
 * @param sizes the message sizes of latency, bw and the collectives
 * @param ranks the numbers of ranks the collectives run with
 * @param compute the overlap experiment's computations between post and wait, in microseconds
 * @param overlapSize the overlap experiment's message size
 * @param window the non-blocking sends per bandwidth iteration
 * @param repeat how many runs; each measures every implementation, in the listed order and reversed
 *     every other run
 * @param warmup 8-byte ping-pongs before anything is measured, in each run
 * @param csv whether to print CSV only
 * @param out where to write mpi.csv and mpi.svg, or {@code null}
 * @param buffers what Polylink's ranks send from and receive into: {@link #ARRAYS} or {@link #DIRECT}
 */
record MpiOptions(List<String> impls, List<String> tests, List<Integer> sizes, List<Integer> ranks, List<Integer> compute,
                  int overlapSize, int window, int repeat, int warmup, boolean csv, Path out, String buffers) {

    /** Blocking calls take arrays: byte[] and double[]. */
    static final String ARRAYS = "arrays";
    /** Every call takes buffers of {@code MPI.newByteBuffer} and {@code MPI.newDoubleBuffer}. */
    static final String DIRECT = "direct";

    static final List<String> IMPLS = List.of(PolylinkRanks.SHM, OpenMpi.VADER, PolylinkRanks.TCP, OpenMpi.TCP);
    static final List<String> TESTS = List.of("latency", "bw", "overlap", "barrier", "bcast", "reduce", "allreduce",
        "alltoall");
    /** The tests between two ranks; the others are collectives, run with each number of ranks. */
    static final List<String> POINT_TO_POINT = List.of("latency", "bw", "overlap");

    static final String HELP = """
        usage: java -jar polylink-bench.jar mpi [options]

        MPI between ranks on this host, in the style of the OSU micro-benchmarks, Polylink's mpi
        bundle against Open MPI's C implementation in the same run. Between two ranks:
          latency   ping-pong of SIZE bytes (MPI send and recv); one-way time = round trip / 2
          bw        windows of WINDOW non-blocking sends of SIZE bytes, then a 1-byte answer; MB/s
                    (10^6 bytes)
          overlap   LA-MPI-ED's experiment: a 1 MiB iSend/iRecv pair, COMPUTE us of computation that
                    calls no MPI between post and wait, then wait; time spent in wait, each side
        Collectives among each number of RANKS, as osu_barrier, osu_bcast, osu_reduce,
        osu_allreduce and osu_alltoall time them: each rank times each call, a barrier between calls, and the figure
        is the ranks' average, in us per call:
          barrier   MPI barrier
          bcast     broadcast of SIZE bytes from rank 0
          reduce    sum of SIZE / 8 doubles to rank 0
          allreduce sum of SIZE / 8 doubles
          alltoall  SIZE bytes from every rank to every rank

        implementations (--impl):
          polylink:shm    two rank JVMs as polylink mpirun starts them; selection takes shm
          polylink:tcp    the same with tcp alone, on 127.0.0.1
          openmpi:vader   Open MPI's mpirun and a C program compiled now with mpicc: --mca btl
                          self,vader --mca pml ob1, unbound
          openmpi:tcp     the same with --mca btl self,tcp on the loopback interface
        Without mpicc and mpirun the openmpi ones are left out, saying how to install them
        (%s).

          --impl LIST      default %s
          --tests LIST     default %s
          --sizes LIST     message sizes, 0 allowed, k and m suffixes (default 0,8,64,512,4k,32k,64k,256k,1m,4m);
                           the collectives take those of at least 8 bytes
          --ranks LIST     the numbers of ranks of the collectives (default 2,4)
          --compute LIST   the overlap computation in us (default 0,100,200,500,1000,2000,5000)
          --overlap-size N the overlap message size (default 1m)
          --window N       sends per bandwidth window (default 64)
          --repeat N       runs, interleaved: each measures every implementation in turn, in the order
                           listed and reversed every other run (default 3)
          --warmup N       8-byte ping-pongs before measuring, in every run (default 20000); Polylink's
                           ranks then go on until a 0.5 s window in which neither rank's JIT compiler
                           threads used CPU ran at the rate of the window before it, within 10%%
                           (at least 6 s, at most 15 s in all)
          --buffers KIND   what Polylink's ranks send from and receive into: arrays (byte[] and
                           double[] in blocking calls, a direct buffer in non-blocking ones, as Open
                           MPI's Java programs do; the default) or direct (buffers of MPI.newByteBuffer
                           and MPI.newDoubleBuffer everywhere, which a host's ranks share, so a large
                           message takes one copy)
          --csv            print CSV only (%s)
          --out DIR        also write mpi.csv and mpi.svg (latency, bandwidth and overlap charts) there
          --help           this text

        Targets, each the median over the runs of the run's own ratio: 8 B latency <= 2.0 x Open MPI
        over shm (vader) and <= 1.2 x over tcp; 1 MiB bandwidth >= 0.8 x Open MPI on both; bcast and
        allreduce <= 1.5 x Open MPI at 8 B and <= 1.0 x from 64 KiB, with each number of ranks.
        Iterations per size: latency 10000 up to 8 KiB, 2000 up to 64 KiB, 200 up to 1 MiB, then 50;
        bw 2000, 50, 10, then 4 windows; overlap 20 per computation; collectives 2000, 500, 100, then
        20 calls. Each test runs for every size before the next test starts. Each figure skips a
        tenth more first; Polylink's latency figures skip ping-pongs of their size until they
        settle as the warm-up does, in 0.1 s windows (at most 2 s); its bandwidth figures follow
        windows of 8 bytes that settle as the warm-up does, and skip windows of their size until
        they settle in 0.1 s windows; its overlap figures follow iterations without computation
        and with 200 us of it that settle the same way (at most 4 s); each collective runs 2000
        calls of 8 bytes before any of its figures is measured, and on Polylink's ranks then calls
        of 8 bytes and each size's untimed calls settle the same way.
        """.formatted(OpenMpi.INSTALL, String.join(",", IMPLS), String.join(",", TESTS), MpiResult.CSV_HEADER);

    /**
     * @return the options, or {@code null} if {@code --help} was asked for
     * @throws IllegalArgumentException naming the option that is wrong
     */
    static MpiOptions parse(String[] args) {
        List<String> impls = IMPLS;
        List<String> tests = TESTS;
        List<Integer> sizes = List.of(0, 8, 64, 512, 4 << 10, 32 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20);
        List<Integer> ranks = List.of(2, 4);
        List<Integer> compute = List.of(0, 100, 200, 500, 1000, 2000, 5000);
        int overlapSize = 1 << 20;
        int window = 64;
        int repeat = 3;
        int warmup = 20_000;
        boolean csv = false;
        Path out = null;
        String buffers = ARRAYS;
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            switch (option) {
                case "--help", "-h" -> {
                    return null;
                }
                case "--impl" -> impls = names(option, value(args, ++i, option), IMPLS);
                case "--tests" -> tests = names(option, value(args, ++i, option), TESTS);
                case "--sizes" -> sizes = sizes(value(args, ++i, option));
                case "--ranks" -> ranks = numbers(option, value(args, ++i, option), 2, 64);
                case "--compute" -> compute = numbers(option, value(args, ++i, option), 0, 10_000_000);
                case "--overlap-size" -> overlapSize = Sizes.parse(value(args, ++i, option), option, 1 << 30).get(0);
                case "--window" -> window = numbers(option, value(args, ++i, option), 1, 4096).get(0);
                case "--repeat" -> repeat = numbers(option, value(args, ++i, option), 1, 1000).get(0);
                case "--warmup" -> warmup = numbers(option, value(args, ++i, option), 0, 100_000_000).get(0);
                case "--buffers" -> {
                    buffers = value(args, ++i, option);
                    if (!buffers.equals(ARRAYS) && !buffers.equals(DIRECT)) {
                        throw new IllegalArgumentException("--buffers takes " + ARRAYS + " or " + DIRECT + ", not " + buffers);
                    }
                }
                case "--csv" -> csv = true;
                case "--out" -> out = Path.of(value(args, ++i, option));
                default -> throw new IllegalArgumentException("unknown option '" + option + "'");
            }
        }
        return new MpiOptions(impls, tests, sizes, ranks, compute, overlapSize, window, repeat, warmup, csv, out, buffers);
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static List<String> names(String option, String list, List<String> known) {
        List<String> out = new ArrayList<>();
        for (String item : list.split(",")) {
            String name = item.strip();
            if (!known.contains(name)) {
                throw new IllegalArgumentException(option + " item '" + name + "' is not one of " + String.join(", ", known));
            }
            if (!out.contains(name)) {
                out.add(name);
            }
        }
        return List.copyOf(out);
    }

    private static List<Integer> sizes(String list) {
        List<Integer> out = new ArrayList<>();
        for (String item : list.split(",")) {
            out.addAll(item.strip().equals("0") ? List.of(0) : Sizes.parse(item, "--sizes", 1 << 30));
        }
        return List.copyOf(out);
    }

    private static List<Integer> numbers(String option, String list, int min, int max) {
        List<Integer> out = new ArrayList<>();
        for (String item : list.split(",")) {
            try {
                int n = Integer.parseInt(item.strip());
                if (n >= min && n <= max) {
                    out.add(n);
                    continue;
                }
            } catch (NumberFormatException notANumber) {
                // said below
            }
            throw new IllegalArgumentException(option + " takes whole numbers from " + min + " to " + max + ", not '"
                + item.strip() + "'");
        }
        return List.copyOf(out);
    }

    /** @return the ping-pongs of one latency figure at {@code size} */
    static int latencyIterations(int size) {
        return size <= 8 << 10 ? 10_000 : size <= 64 << 10 ? 2_000 : size <= 1 << 20 ? 200 : 50;
    }

    /**
     * @return the windows of one bandwidth figure at {@code size}: small sizes run for some tens of
     *     milliseconds too, since 200 windows of 8 bytes (a few milliseconds) timed mostly the
     *     first windows after the barrier before them (docs/performance-notes.md#lent-bytes)
     */
    static int bwIterations(int size) {
        return size <= 8 << 10 ? 2_000 : size <= 64 << 10 ? 50 : size <= 1 << 20 ? 10 : 4;
    }

    /** @return the calls of one collective's figure at {@code size} */
    static int collectiveIterations(int size) {
        return size <= 8 << 10 ? 2_000 : size <= 64 << 10 ? 500 : size <= 1 << 20 ? 100 : 20;
    }

    /** The overlap iterations per computation. */
    static final int OVERLAP_ITERATIONS = 20;

    /** @return the numbers of ranks to run: two for the point-to-point tests, each of {@link #ranks} for collectives */
    List<Integer> rankCounts() {
        List<Integer> out = new ArrayList<>();
        if (tests.stream().anyMatch(POINT_TO_POINT::contains)) {
            out.add(2);
        }
        if (tests.stream().anyMatch(t -> !POINT_TO_POINT.contains(t))) {
            ranks.stream().filter(r -> !out.contains(r)).forEach(out::add);
        }
        return out;
    }

    /** @return the arguments of {@code osu.c} and {@link OsuRank} for a run of {@code n} ranks: the point-to-point tests only with two */
    List<String> programArguments(int n) {
        List<String> sizeItems = new ArrayList<>();
        for (int size : sizes) {
            sizeItems.add(size + ":" + latencyIterations(size) + ":" + bwIterations(size) + ":" + collectiveIterations(size));
        }
        List<String> computeItems = new ArrayList<>();
        for (int us : compute) {
            computeItems.add(us + ":" + OVERLAP_ITERATIONS);
        }
        List<String> run = tests.stream().filter(t -> (n == 2 || !POINT_TO_POINT.contains(t))
            && (POINT_TO_POINT.contains(t) || ranks.contains(n))).toList();
        return List.of(String.join(",", run), String.join(",", sizeItems), Integer.toString(overlapSize),
            String.join(",", computeItems), Integer.toString(window), Integer.toString(warmup));
    }
}
