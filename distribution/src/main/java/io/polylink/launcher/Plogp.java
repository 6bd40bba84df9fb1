package io.polylink.launcher;

import io.polylink.launcher.mpirun.Mpirun;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code polylink plogp}: measures P-LogP link models between two ranks that {@code polylink
 * mpirun} starts, one stack after another, with the rank program of the {@code mpi} bundle
 * ({@code io.polylink.mpi.internal.plogp.PLogPMain}), which prints the tables, merges the models
 * into the installation's file and draws them.
 */
final class Plogp {

    static final String HELP = """
        usage: polylink plogp [--stacks LIST] [--host A,B | --hostfile FILE] [options]

        Measures the P-LogP model of the link between two ranks over each stack, by MagPIe's procedure:
        the latency L, and at each message size m the send overhead os(m), the receive overhead or(m),
        the gap g(m) and the round trip RTT(m). Prints each model as a table, merges the models into the
        installation's model file, which MPI jobs get at start to shape their broadcasts across sites, and
        draws them.

          --stacks LIST      the stacks to measure, e.g. shm,tcp,lz4/tcp (default: the stack the two ranks
                             take, shm on one host and tcp between two)
          --host A,B, --hostfile FILE
                             rank 0 on the first host, rank 1 on the second, as polylink mpirun takes them
                             (and --launcher, --prefix, --wdir, --rendezvous, --registry, --tmpdir, -x);
                             default both on this host
          --min-size N, --max-size N
                             measure every power of two from N to N bytes (default 1 and 4m; 0 always)
          --time-ms N        how long each parameter is measured at each size (default 40)
          --warmup-ms N      how long each stack is used at every size before it is measured (default 3000)
          --db FILE          the model file to merge into (default conf/plogp.models of this installation)
          --svg FILE         the chart (default plogp.svg)
          --help             this text

        Example: polylink plogp --stacks shm,tcp,lz4/tcp""";

    /** Options passed to polylink mpirun with their values. */
    private static final Set<String> MPIRUN = Set.of("--host", "--hostfile", "--launcher", "--prefix", "--wdir",
        "--rendezvous", "--registry", "--tmpdir", "-x");

    /** Options of the rank program with their values. */
    private static final Set<String> PROGRAM = Set.of("--min-size", "--max-size", "--time-ms", "--warmup-ms");

    private Plogp() {}

    static int run(String[] args, Path home) throws InterruptedException {
        List<String> mpirun;
        try {
            mpirun = mpirunArgs(args, home);
        } catch (IllegalArgumentException e) {
            System.err.println("polylink plogp: " + e.getMessage() + " (polylink plogp --help describes every option)");
            return 2;
        }
        if (mpirun == null) {
            System.out.println(HELP);
            return 0;
        }
        return Mpirun.run(mpirun.toArray(String[]::new), home);
    }

    /**
     * @return the command line of {@code polylink mpirun} that measures what {@code args} ask for,
     *     or {@code null} for {@code --help}
     * @throws IllegalArgumentException naming an option that is unknown or lacks its value
     */
    static List<String> mpirunArgs(String[] args, Path home) {
        List<String> launch = new ArrayList<>(List.of("-np", "2"));
        List<String> program = new ArrayList<>();
        Set<String> methods = new LinkedHashSet<>(List.of("tcp", "shm"));
        Set<String> transforms = new LinkedHashSet<>();
        String db = home.resolve("conf").resolve("plogp.models").toString();
        String svg = "plogp.svg";
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (option.equals("--help") || option.equals("-h")) {
                return null;
            }
            if (!MPIRUN.contains(option) && !PROGRAM.contains(option)
                && !List.of("--stacks", "--db", "--svg").contains(option)) {
                throw new IllegalArgumentException("unknown option '" + option + "'");
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            String value = args[++i];
            if (MPIRUN.contains(option)) {
                launch.addAll(List.of(option, value));
            } else if (PROGRAM.contains(option)) {
                program.addAll(List.of(option, value));
            } else if (option.equals("--db")) {
                db = value;
            } else if (option.equals("--svg")) {
                svg = value;
            } else {
                for (String stack : value.split(",")) {
                    String s = stack.trim();
                    int slash = s.lastIndexOf('/');
                    methods.add(s.substring(slash + 1));
                    if (slash > 0) {
                        transforms.addAll(List.of(s.substring(0, slash).split("\\+")));
                    }
                }
                program.addAll(List.of("--stacks", value));
            }
        }
        // The measuring ranks need no models, and a broken model file is for the rank program to name.
        launch.addAll(List.of("-x", "POLYLINK_MPI_PLOGP_MODELS=", "--methods", String.join(",", methods)));
        if (!transforms.isEmpty()) {
            launch.addAll(List.of("--transforms", String.join(",", transforms)));
        }
        launch.addAll(List.of("-cp", home.resolve("lib").resolve("mpi").resolve("polylink-mpi.jar").toString(),
            "io.polylink.mpi.internal.plogp.PLogPMain"));
        launch.addAll(program);
        launch.addAll(List.of("--db", db, "--svg", svg));
        return launch;
    }
}
