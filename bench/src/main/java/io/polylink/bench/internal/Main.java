package io.polylink.bench.internal;

import io.polylink.bench.internal.mpi.MpiCommand;
import io.polylink.bench.internal.pingpong.MultiCommand;
import io.polylink.bench.internal.pingpong.PeerCommand;
import io.polylink.bench.internal.pingpong.PingPongCommand;
import io.polylink.bench.internal.swap.SwapCommand;
import io.polylink.bench.internal.swap.SwapNode;
import io.polylink.bench.internal.transforms.TransformsCommand;
import java.util.Arrays;

/**
 * The bench jar's entry point: one command per kind of measurement, so a single jar serves every
 * benchmark and every peer process.
 *
 * <pre>
 *   java -jar polylink-bench.jar jmh [JMH options] [benchmark regexp]
 *   java -jar polylink-bench.jar pingpong [--impl list] [--sizes list] [--count n] [--csv] ...
 *   java -jar polylink-bench.jar multi [--sizes list] [--count n] [--csv] ...
 *   java -jar polylink-bench.jar transforms [--sizes list] [--csv] ...
 *   java -jar polylink-bench.jar swap [--cycles n] [--csv] ...
 *   java -jar polylink-bench.jar mpi [--impl list] [--sizes list] [--repeat n] [--csv] [--out dir] ...
 * </pre>
 */
public final class Main {

    private Main() {}

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            usage();
            System.exit(2);
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        switch (args[0]) {
            case "jmh" -> System.exit(JmhCommand.run(rest));
            case "pingpong" -> System.exit(PingPongCommand.run(rest, System.out));
            case "multi" -> System.exit(MultiCommand.run(rest, System.out));
            case "transforms" -> System.exit(TransformsCommand.run(rest, System.out));
            case "swap" -> System.exit(SwapCommand.run(rest, System.out));
            case "mpi" -> System.exit(MpiCommand.run(rest, System.out));
            case "magpie" -> System.exit(io.polylink.bench.internal.magpie.MagpieCommand.run(rest, System.out));
            // The child processes pingpong starts; not for typing.
            case "pingpong-server" -> System.exit(PeerCommand.server(rest));
            case "pingpong-client" -> System.exit(PeerCommand.client(rest));
            case "swap-node" -> System.exit(SwapNode.run(rest));
            case "help", "-h", "--help" -> usage();
            default -> {
                System.err.println("unknown command '" + args[0] + "'");
                usage();
                System.exit(2);
            }
        }
    }

    private static void usage() {
        System.err.println("""
            usage: java -jar polylink-bench.jar <command> [arguments]

            commands:
              jmh [JMH options] [regexp]   run JMH benchmarks (e.g. LocalRsr -f 1 -wi 3 -i 5 -prof gc),
                                           then compare each with its class's 'baseline'; -h for options
              pingpong [options]           round trips and bandwidth between two processes: raw NIO,
                                           Netty, Polylink tcp and its lz4/aead stacks, a raw mmap
                                           ring, Aeron IPC and Polylink shm side by side; -h for options
              multi [options]              Nexus ppmulti: the shm round trip alone, with tcp installed
                                           and idle, with a tcp ping-pong alongside; -h for options
              transforms [options]         lz4 and aead transform throughput against the raw
                                           libraries; -h for options
              swap [options]               RSRs between two processes while a Felix node updates its
                                           tcp, shm and lz4 bundles again and again: lost, duplicated,
                                           reordered, send stalls; -h for options
              mpi [options]                MPI latency, bandwidth and overlap between two ranks: the mpi
                                           bundle over shm and tcp against Open MPI's C implementation
                                           (vader, tcp) when mpicc and mpirun exist; -h for options
              magpie [options]             MagPIe's broadcast between clusters joined by emulated
                                           wide-area links (network namespaces and a user-space router),
                                           against the links' P-LogP estimates; --help for options
            """);
    }
}
