package io.polylink.bench.internal.pingpong;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One implementation's server and client, each in a fresh JVM. The client runs the whole
 * measurement on its own, or, started with {@code steps}, one step per line its stdin brings.
 */
final class PeerPair implements AutoCloseable {

    /** How long a server may take to say where it listens. */
    private static final long START_NANOS = TimeUnit.SECONDS.toNanos(60);

    final String impl;
    private final ChildJvm server;
    final ChildJvm client;

    private PeerPair(String impl, ChildJvm server, ChildJvm client) {
        this.impl = impl;
        this.server = server;
        this.client = client;
    }

    /**
     * @param wait the client's wait, as {@link PingPongOptions#waitOn} decided
     * @param steps whether the client waits for its steps ({@link ClientLoop#steps})
     * @param deadline a {@link System#nanoTime()} value the server must have started by
     */
    static PeerPair start(String impl, PingPongOptions options, String wait, boolean steps, long deadline)
            throws Exception {
        List<String> jvm = new ArrayList<>(options.jvmOptions());
        if (impl.equals(Peers.NETTY_NIO)) {
            // A debugging aid that samples allocations; a tuned deployment turns it off.
            jvm.add("-Dio.netty.leakDetection.level=disabled");
        }
        List<String> peerArgs = List.of("--impl", impl, "--idle", options.idle(), "--wait", wait,
            "--driver", options.driver(),
            "--sizes", String.join(",", options.sizes().stream().map(String::valueOf).toList()),
            "--count", Integer.toString(options.count()), "--warmup", Integer.toString(options.warmup()));
        System.err.println("pingpong: " + impl + ": starting server and client processes");
        ChildJvm server = ChildJvm.start(impl + " server", jvm, concat(PeerCommand.SERVER, peerArgs));
        try {
            long started = Math.min(deadline, System.nanoTime() + START_NANOS);
            String line;
            // The JVM may print too (e.g. -XX:StartFlightRecording): pass that on, wait for the address.
            while (!(line = server.nextLine(started)).startsWith(PeerCommand.ADDRESS)) {
                System.err.println(impl + " server: " + line);
            }
            List<String> clientArgs = new ArrayList<>(concat(PeerCommand.CLIENT, peerArgs));
            clientArgs.add("--address");
            clientArgs.add(line.substring(PeerCommand.ADDRESS.length()));
            clientArgs.add(PeerCommand.SERVER_PID);
            clientArgs.add(Long.toString(server.pid()));
            if (steps) {
                clientArgs.add(PeerCommand.STEPS);
            }
            return new PeerPair(impl, server, ChildJvm.start(impl + " client", jvm, clientArgs));
        } catch (Exception | Error e) {
            server.close();
            throw e;
        }
    }

    /**
     * @return the client's next result line, {@link PeerCommand#DONE} or answer to a step; lines
     *     of other kinds (the JVM's own) go to stderr on the way
     * @throws IllegalStateException if the client ended or the deadline passed first
     */
    String nextAnswer(long deadline) throws InterruptedException {
        while (true) {
            String line = client.nextLine(deadline);
            if (SizeResult.isLine(line) || line.equals(PeerCommand.DONE) || line.startsWith(ClientLoop.WARMED)) {
                return line;
            }
            System.err.println(impl + " client: " + line);
        }
    }

    /** Closes the client, then the server: each is asked to exit, and killed if it does not. */
    @Override
    public void close() throws InterruptedException {
        try {
            client.close();
        } finally {
            server.close();
        }
    }

    private static List<String> concat(String command, List<String> args) {
        List<String> all = new ArrayList<>();
        all.add(command);
        all.addAll(args);
        return all;
    }
}
