package io.polylink.launcher;

import io.polylink.launcher.mpirun.Mpirun;
import java.util.Arrays;

/** {@code bin/polylink}: dispatches to a command. */
public final class Main {

    private static final String USAGE = """
        usage: polylink <command> [options]

        commands:
          node     run one context in a Felix framework, with the Gogo shell or as a daemon
          demo     two nodes on this machine: selection, latency, lz4 at run time, shm -> tcp -> shm
                   hot swap under a numbered stream of RSRs (about 30 s)
          bench    the benchmarks of lib/bench/polylink-bench.jar, with CSV and an SVG chart of the results
          mpirun   run an MPI program (Open MPI's Java API, package mpi) as N ranks on this host

        options:
          --help   this text

        Every command takes --help and describes its options there.""";

    private Main() {}

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            System.err.println("polylink: name a command\n" + USAGE);
            System.exit(2);
        }
        if (args[0].equals("--help") || args[0].equals("-h")) {
            System.out.println(USAGE);
            System.exit(0);
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        switch (args[0]) {
            case "node" -> System.exit(Node.run(rest));
            case "demo" -> System.exit(Demo.run(rest));
            case "bench" -> System.exit(Bench.run(rest));
            case "mpirun" -> System.exit(Mpirun.run(rest, Home.fromSystemProperty().root()));
            default -> {
                System.err.println("polylink: unknown " + (args[0].startsWith("-") ? "option" : "command") + " '"
                    + args[0] + "'\n" + USAGE);
                System.exit(2);
            }
        }
    }
}
