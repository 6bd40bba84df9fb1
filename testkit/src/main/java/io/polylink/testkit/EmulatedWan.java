package io.polylink.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Clusters joined by emulated wide-area links, for experiments across sites on one machine: each
 * cluster a network namespace with a machine id of its own and a TUN device with an address of its
 * own, and a user-space router between the TUN devices (wan-router.c, compiled here with gcc) that
 * holds every packet from one cluster to another behind the packets before it on the link of that
 * pair and direction, at the link's rate, then for its delay. Within a cluster traffic stays in its
 * namespace, unshaped. Nothing in a cluster can tell the links are emulated: they are a TUN device
 * and a route.
 *
 * <p>A process runs in cluster {@code i} by {@code ip netns exec} {@link #cluster}(i); a program
 * there that listens on {@link #address}(i) is reached from the other clusters across the emulated
 * links. Names start as {@link NetworkNamespaces}' do, so either's sweep removes what a dead process
 * left. {@link #close()} kills the clusters' processes and the router and removes every namespace
 * and file. Needs root, {@code ip}, {@code gcc} and {@code /dev/net/tun}.
 */
public final class EmulatedWan implements AutoCloseable {

    private static final Path TUN = Path.of("/dev/net/tun");

    private final String tag;
    private final String subnet;
    private final Path work;
    private final List<String> clusters = new ArrayList<>();
    private Process router;
    private CompletableFuture<String> routerReport;
    /** Takes the testbed down if the JVM ends first (Ctrl-C, SIGTERM). */
    private final Thread hook = new Thread(this::stopQuietly, "polylink-testkit-wan-stop");

    private EmulatedWan(String tag, String subnet, Path work) {
        this.tag = tag;
        this.subnet = subnet;
        this.work = work;
    }

    /** @return why the testbed cannot be made here, or {@code null} if it can */
    public static String unavailable() {
        String namespaces = NetworkNamespaces.unavailable();
        if (namespaces != null) {
            return namespaces;
        }
        if (!Files.exists(TUN)) {
            return "no " + TUN + ": the kernel has no TUN devices";
        }
        try {
            String probe = NetworkNamespaces.PREFIX + ProcessHandle.current().pid() + "p";
            String made = NetworkNamespaces.run("ip", "tuntap", "add", "dev", probe, "mode", "tun");
            if (made != null) {
                return "a TUN device cannot be made here (ip tuntap add): " + made.strip();
            }
            NetworkNamespaces.run("ip", "tuntap", "del", "dev", probe, "mode", "tun");
        } catch (IOException e) {
            return "ip tuntap does not run: " + e.getMessage();
        }
        Path probe = null;
        try {
            probe = Files.createTempDirectory("polylink-wan-probe-");
            buildRouter(probe);
            return null;
        } catch (IOException e) {
            return "the router of the emulated links cannot be built here (gcc and the kernel's headers): "
                + e.getMessage();
        } finally {
            if (probe != null) {
                try {
                    NetworkNamespaces.delete(probe);
                } catch (IOException ignored) {
                    // a temporary directory: the system's cleaning takes it
                }
            }
        }
    }

    /** @return the router, built from its source with gcc in a new directory under {@code dir} */
    private static Path buildRouter(Path dir) throws IOException {
        Path source = Files.createTempDirectory(dir, "wan-router-").resolve("wan-router.c");
        try (InputStream in = EmulatedWan.class.getResourceAsStream("wan-router.c")) {
            Files.copy(in, source);
        }
        Path binary = source.resolveSibling("wan-router");
        String built = NetworkNamespaces.run("gcc", "-O2", "-o", binary.toString(), source.toString());
        if (built != null) {
            throw new IOException("gcc could not build the router: " + built.strip());
        }
        return binary;
    }

    /**
     * Makes {@code count} clusters, each pair joined by emulated links of {@code delayMicros} one
     * way and {@code bytesPerSecond} each way, their queues {@code queueBytes} deep.
     *
     * @param work where the router is built; removed by the caller
     * @throws IOException naming what failed; what was made is removed
     */
    public static EmulatedWan create(int count, long delayMicros, long bytesPerSecond, long queueBytes, Path work)
            throws IOException {
        if (count < 2 || count > 32) {
            throw new IllegalArgumentException("2 to 32 clusters, not " + count);
        }
        NetworkNamespaces.sweep();
        long pid = ProcessHandle.current().pid();
        EmulatedWan wan = new EmulatedWan(NetworkNamespaces.PREFIX + pid, "10.251." + (pid % 250), work);
        Runtime.getRuntime().addShutdownHook(wan.hook);
        try {
            wan.start(count, delayMicros, bytesPerSecond, queueBytes);
            return wan;
        } catch (IOException | RuntimeException e) {
            wan.close();
            throw e;
        }
    }

    private void start(int count, long delayMicros, long bytesPerSecond, long queueBytes) throws IOException {
        Path binary = buildRouter(work);
        List<String> command = new ArrayList<>(List.of(binary.toString(), Long.toString(delayMicros),
            Long.toString(bytesPerSecond), Long.toString(queueBytes)));
        for (int i = 0; i < count; i++) {
            command.addAll(List.of(tun(i), address(i)));
        }
        router = new ProcessBuilder(command).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(router.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<String> ready = CompletableFuture.supplyAsync(() -> {
            try {
                return out.readLine();
            } catch (IOException e) {
                return e.getMessage();
            }
        });
        String first;
        try {
            first = ready.get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IOException("the router did not say it was ready within 30 s", e);
        }
        if (!"ready".equals(first)) {
            throw new IOException("the router did not start: " + first);
        }
        routerReport = CompletableFuture.supplyAsync(() -> {
            StringBuilder report = new StringBuilder();
            try {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    report.append(line).append('\n');
                }
            } catch (IOException e) {
                report.append(e.getMessage());
            }
            return report.toString();
        });
        for (int i = 0; i < count; i++) {
            String name = tag + "w" + i;
            NetworkNamespaces.must("ip", "netns", "add", name);
            clusters.add(name);
            NetworkNamespaces.must("ip", "link", "set", tun(i), "netns", name);
            NetworkNamespaces.must("ip", "-n", name, "addr", "add", address(i) + "/24", "dev", tun(i));
            NetworkNamespaces.must("ip", "-n", name, "link", "set", tun(i), "up");
            NetworkNamespaces.must("ip", "-n", name, "link", "set", "lo", "up");
            NetworkNamespaces.giveMachineId(name);
        }
    }

    private String tun(int i) {
        return tag + "t" + i;
    }

    /** @return cluster {@code i}'s namespace */
    public String cluster(int i) {
        return clusters.get(i);
    }

    /** @return cluster {@code i}'s address, where the other clusters reach it */
    public String address(int i) {
        return subnet + "." + (1 + i);
    }

    /** @return the number of clusters */
    public int clusters() {
        return clusters.size();
    }

    /**
     * Kills every process of every cluster, then the router, and removes every namespace and file.
     *
     * @return what the router counted on each link: packets, bytes and drops
     */
    public synchronized String stop() throws IOException {
        if (Thread.currentThread() != hook) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs, or ran, this itself
            }
        }
        List<String> failed = new ArrayList<>();
        for (String name : clusters) {
            try {
                NetworkNamespaces.remove(name, null);
            } catch (IOException e) {
                failed.add(e.getMessage());
            }
        }
        clusters.clear();
        String report = "";
        if (router != null) {
            router.toHandle().destroy(); // SIGTERM, the streams left open: it prints its counts and exits
            try {
                if (!router.waitFor(10, TimeUnit.SECONDS)) {
                    router.destroyForcibly();
                }
                report = routerReport.get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                router.destroyForcibly();
                report = "the router's counts were lost: " + e;
            }
            router = null;
        }
        if (!failed.isEmpty()) {
            throw new IOException("could not remove " + String.join("; ", failed));
        }
        return report;
    }

    @Override
    public void close() throws IOException {
        stop();
    }

    private void stopQuietly() {
        try {
            stop();
        } catch (IOException e) {
            System.err.println("the emulated testbed could not be removed: " + e.getMessage());
        }
    }

}
