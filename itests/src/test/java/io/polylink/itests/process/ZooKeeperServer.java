package io.polylink.itests.process;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

/**
 * A ZooKeeper server in a JVM of its own, run from the ZooKeeper jars on the test class path
 * ({@code ZooKeeperServerMain PORT DATADIR}), with its data in a directory that outlives a
 * restart. Output goes to {@code zookeeper.log} beside the data. Closing kills the server.
 */
final class ZooKeeperServer implements AutoCloseable {

    /** A class of each jar the server runs with: ZooKeeper, SLF4J, and the libraries the server loads. */
    private static final List<String> CLASS_PATH = List.of("org.apache.zookeeper.server.ZooKeeperServerMain",
        "org.apache.jute.Record", "org.slf4j.Logger", "org.slf4j.jul.JULServiceProvider",
        "org.apache.commons.io.FileUtils", "org.apache.yetus.audience.InterfaceAudience", "com.codahale.metrics.Reservoir",
        "org.xerial.snappy.SnappyInputStream", "io.netty.util.Version",
        "io.netty.buffer.ByteBuf", "io.netty.channel.Channel", "io.netty.handler.ssl.SslContext",
        "io.netty.handler.codec.ByteToMessageDecoder", "io.netty.resolver.AddressResolver",
        "io.netty.channel.unix.Socket");

    private final Path directory;
    private final int port;
    private Process process;

    private ZooKeeperServer(Path directory, int port) {
        this.directory = directory;
        this.port = port;
    }

    /** Starts a server on a free port, its data in {@code directory}, and waits until it listens. */
    static ZooKeeperServer start(Path directory) throws IOException, InterruptedException {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        ZooKeeperServer server = new ZooKeeperServer(Files.createDirectories(directory), port);
        server.start();
        return server;
    }

    /** @return {@code 127.0.0.1:PORT} */
    String connect() {
        return "127.0.0.1:" + port;
    }

    private void start() throws IOException, InterruptedException {
        String classPath = CLASS_PATH.stream().map(ZooKeeperServer::jarOf).distinct()
            .collect(Collectors.joining(File.pathSeparator));
        process = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "-Xmx128m",
            "-Dzookeeper.admin.enableServer=false", "-cp", classPath, "org.apache.zookeeper.server.ZooKeeperServerMain",
            Integer.toString(port), directory.resolve("data").toString())
            .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(directory.resolve("zookeeper.log")
                .toFile())).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
                return;
            } catch (IOException notYet) {
                if (!process.isAlive() || System.nanoTime() - deadline > 0) {
                    String log = Files.readString(directory.resolve("zookeeper.log"));
                    close();
                    throw new AssertionError("ZooKeeper did not listen on " + port + " within 30 s:\n" + log);
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // a port has no event to wait on
            }
        }
    }

    /**
     * @return the jar of the test class path that holds {@code className}, other than Polylink's
     *     own (the ZooKeeper registry bundle carries parts of ZooKeeper's client inside)
     */
    private static String jarOf(String className) {
        try {
            for (URL url : Collections.list(ZooKeeperServer.class.getClassLoader()
                    .getResources(className.replace('.', '/') + ".class"))) {
                String jar = url.getPath().replaceFirst("^file:", "").replaceFirst("!/.*$", "");
                if (!Path.of(jar).getFileName().toString().startsWith("polylink-")) {
                    return jar;
                }
            }
        } catch (IOException e) {
            throw new AssertionError("cannot read the test class path: " + e);
        }
        throw new AssertionError("the test class path has no jar with " + className + " but Polylink's");
    }

    /** Stops the server (SIGKILL, as a crash does) and starts it again on its port with its data. */
    void restart() throws IOException, InterruptedException {
        kill();
        start();
    }

    private void kill() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly();
            if (!process.waitFor(Duration.ofSeconds(20).toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("ZooKeeper (pid " + process.pid() + ") did not end after SIGKILL");
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        kill();
    }
}
