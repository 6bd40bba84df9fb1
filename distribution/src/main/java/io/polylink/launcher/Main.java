package io.polylink.launcher;

import io.polylink.launcher.mpirun.Mpirun;
import java.util.Arrays;

/** {@code bin/polylink}: dispatches to a command. */
public final class Main {

    private static final String USAGE = """
        usage: polylink <command> [options]
               polylink --version

        commands:
          node     run one context in a Felix framework, in the foreground, with the Gogo shell or as a
                   daemon
          start    start a named node in the background and wait until it is up
          stop     stop a named node: SIGTERM, and a bounded wait for it to end
          status   whether a named node runs (pid, context id, methods); without a name, every node
          demo     two nodes on this machine: selection, latency, lz4 at run time, shm -> tcp -> shm
                   hot swap under a numbered stream of RSRs (about 30 s)
          bench    the benchmarks of lib/bench/polylink-bench.jar, with CSV and an SVG chart of the results
          mpirun   run an MPI program (Open MPI's Java API, package mpi) on one host or many
          plogp    measure the P-LogP model of links between two ranks (L, os, or, g against message size)
                   into the installation's model file, which shapes MPI broadcasts across sites

        options:
          --version  the version of this distribution, of the API and SPI packages, of Felix and Java
          --help     this text

        Every command takes --help and describes its options there.""";

    private Main() {}

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            System.err.println("polylink: name a command\n" + USAGE);
            System.exit(2);
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        try {
            System.exit(run(args[0], rest));
        } catch (Answered answered) {
            System.exit(answered.status());
        }
    }

    private static int run(String command, String[] rest) throws Exception {
        return switch (command) {
            case "--help", "-h" -> {
                System.out.println(USAGE);
                yield 0;
            }
            case "--version" -> {
                if (rest.length > 0) {
                    System.err.println("polylink: --version takes no options, not '" + rest[0] + "'");
                    yield 2;
                }
                yield Version.run();
            }
            case "node" -> Node.run(rest);
            case "start" -> Start.run(rest);
            case "stop" -> Stop.run(rest);
            case "status" -> Status.run(rest);
            case "demo" -> Demo.run(rest);
            case "bench" -> Bench.run(rest);
            case "mpirun" -> Mpirun.run(rest, Home.fromSystemProperty().root());
            case "plogp" -> Plogp.run(rest, Home.fromSystemProperty().root());
            default -> {
                System.err.println("polylink: unknown " + (command.startsWith("-") ? "option" : "command") + " '"
                    + command + "'\n" + USAGE);
                yield 2;
            }
        };
    }
}
