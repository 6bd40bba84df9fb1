package io.polylink.bench.internal.pingpong;

import io.polylink.bench.internal.CompilerActivity;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The two child processes of {@link PingPongCommand}: {@code pingpong-server} and
 * {@code pingpong-client}. Both take the command's own arguments for one implementation, the
 * client also {@code --address} (what the server printed) and {@code --server-pid} (to watch its
 * JIT), and {@code --steps} in an interleaved run. Each exits when its stdin closes, so a child
 * never outlives the command that started it.
 */
public final class PeerCommand {

    static final String SERVER = "pingpong-server";
    static final String CLIENT = "pingpong-client";
    static final String ADDRESS = "address ";
    static final String DONE = "done";
    static final String SERVER_PID = "--server-pid";
    /** The client takes its steps from stdin, one at a time: see {@link ClientLoop#steps}. */
    static final String STEPS = "--steps";

    private PeerCommand() {}

    /** @return the process exit status */
    public static int server(String[] args) throws Exception {
        PingPongOptions options = PingPongOptions.parse(args, Peers.ALL);
        String impl = only(options);
        try (PingPongServer server = Peers.server(impl, options.idle())) {
            System.out.println(ADDRESS + server.address());
            System.out.flush();
            drain(System.in);
        }
        return 0;
    }

    /** @return the process exit status */
    public static int client(String[] args) throws Exception {
        List<String> rest = new ArrayList<>(List.of(args));
        String address = take(rest, "--address");
        long serverPid = Long.parseLong(take(rest, SERVER_PID));
        boolean steps = rest.remove(STEPS);
        PingPongOptions options = PingPongOptions.parse(rest.toArray(String[]::new), Peers.ALL);
        String impl = only(options);
        PrintStream out = System.out;
        CompilerActivity jit = CompilerActivity.of(ProcessHandle.current().pid(), serverPid);
        if (steps) {
            // The steps come on stdin, and end with it: when the command is done, or gone.
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            try (PingPongClient client = Peers.client(impl, options, address)) {
                ClientLoop.steps(impl, client, options, jit, in, out, System.err);
            }
            return 0;
        }
        AtomicBoolean finished = new AtomicBoolean();
        Thread watchdog = new Thread(() -> {
            drain(System.in);
            if (!finished.get()) {
                System.err.println(CLIENT + ": the command went away; exiting");
                System.exit(3); // not halt: the shutdown hooks delete this peer's temporary files
            }
        }, "pingpong-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        try (PingPongClient client = Peers.client(impl, options, address)) {
            ClientLoop.run(impl, client, options, jit, out, System.err);
        }
        finished.set(true);
        out.println(DONE);
        out.flush();
        return 0;
    }

    /** Removes {@code option} and its value from {@code args}. @return the value */
    private static String take(List<String> args, String option) {
        int at = args.indexOf(option);
        if (at < 0 || at + 1 >= args.size()) {
            throw new IllegalArgumentException(CLIENT + " needs " + option);
        }
        String value = args.remove(at + 1);
        args.remove(at);
        return value;
    }

    private static String only(PingPongOptions options) {
        if (options.impls().size() != 1) {
            throw new IllegalArgumentException("a pingpong peer runs exactly one --impl");
        }
        return options.impls().get(0);
    }

    /** Reads until end of stream or failure: the parent closed our stdin, or died. */
    private static void drain(InputStream in) {
        byte[] skip = new byte[256];
        try {
            while (in.read(skip) >= 0) {
                // nothing is sent on stdin; only its end matters
            }
        } catch (IOException e) {
            // the same: the parent is gone
        }
    }
}
