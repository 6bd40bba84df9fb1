package io.polylink.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Network namespaces standing for hosts of one LAN, for tests of what runs across hosts: a bridge
 * in this namespace (the LAN, and this host on it at {@code .1}), and per "host" a namespace with
 * a veth on the bridge at {@code .11}, {@code .12}, …, its loopback up, and a machine id of its
 * own ({@code /etc/netns/NAME/machine-id}, which {@code ip netns exec} puts over
 * {@code /etc/machine-id}), so that contexts there are on different hosts. The processes of a
 * host run by {@code ip netns exec NAME}.
 *
 * <p>Every name starts with {@code plh} and the creating process's pid; {@link #create} first
 * removes whatever a process that is gone left under such names. {@link #close()} kills the
 * hosts' processes and removes every namespace, link and file. Needs root and {@code ip}.
 */
public final class NetworkNamespaces implements AutoCloseable {

    static final String PREFIX = "plh";
    private static final Pattern OURS = Pattern.compile(PREFIX + "(\\d+)[a-z]\\d*");
    static final Path NETNS_ETC = Path.of("/etc/netns");

    private final String tag;
    private final String subnet;
    private final List<String> hosts = new ArrayList<>();
    private final List<String> removed = new ArrayList<>();

    private NetworkNamespaces(String tag, String subnet) {
        this.tag = tag;
        this.subnet = subnet;
    }

    /**
     * @return why namespaces cannot be made here, or {@code null} if they can
     */
    public static String unavailable() {
        String probe = PREFIX + ProcessHandle.current().pid() + "p";
        try {
            String made = run("ip", "netns", "add", probe);
            if (made != null) {
                return "'ip netns add' is not permitted here: " + made.strip();
            }
            run("ip", "netns", "del", probe);
            return null;
        } catch (IOException e) {
            return "no 'ip' command: " + e.getMessage();
        }
    }

    /**
     * Makes the LAN and {@code count} hosts, named {@link #host}(0) and on.
     *
     * @throws IOException naming the command that failed and what it said; what was made is removed
     */
    public static NetworkNamespaces create(int count) throws IOException {
        sweep();
        long pid = ProcessHandle.current().pid();
        NetworkNamespaces lan = new NetworkNamespaces(PREFIX + pid, "10." + (100 + (pid >> 8) % 150) + "." + (pid & 0xFF));
        try {
            must("ip", "link", "add", lan.bridge(), "type", "bridge");
            must("ip", "addr", "add", lan.subnet + ".1/24", "dev", lan.bridge());
            must("ip", "link", "set", lan.bridge(), "up");
            for (int i = 0; i < count; i++) {
                lan.add(i);
            }
            return lan;
        } catch (IOException | RuntimeException e) {
            lan.close();
            throw e;
        }
    }

    private void add(int i) throws IOException {
        String name = tag + "h" + i;
        must("ip", "netns", "add", name);
        hosts.add(name);
        String outside = tag + "v" + i;
        String inside = tag + "n" + i;
        must("ip", "link", "add", outside, "type", "veth", "peer", "name", inside);
        must("ip", "link", "set", inside, "netns", name);
        must("ip", "link", "set", outside, "master", bridge(), "up");
        must("ip", "netns", "exec", name, "ip", "addr", "add", address(i) + "/24", "dev", inside);
        must("ip", "netns", "exec", name, "ip", "link", "set", inside, "up");
        must("ip", "netns", "exec", name, "ip", "link", "set", "lo", "up");
        giveMachineId(name);
    }

    /** Gives namespace {@code name} a machine id of its own, which {@code ip netns exec} puts over /etc/machine-id. */
    static void giveMachineId(String name) throws IOException {
        byte[] id = new byte[16];
        new SecureRandom().nextBytes(id);
        Path etc = Files.createDirectories(NETNS_ETC.resolve(name));
        Files.writeString(etc.resolve("machine-id"), HexFormat.of().formatHex(id) + "\n", StandardCharsets.US_ASCII);
    }

    /** @return host {@code i}'s namespace name */
    public String host(int i) {
        return hosts.get(i);
    }

    /** @return host {@code i}'s address on the LAN */
    public String address(int i) {
        return subnet + "." + (11 + i);
    }

    /** @return this host's address on the LAN, where the hosts reach it */
    public String gateway() {
        return subnet + ".1";
    }

    private String bridge() {
        return tag + "b";
    }

    /** @return the pids of the processes in host {@code i}'s namespace */
    public List<Long> processes(int i) throws IOException {
        if (removed.contains(host(i))) {
            return List.of();
        }
        return pids(host(i));
    }

    /**
     * Takes host {@code i} down as a host dies: kills every process in its namespace and deletes
     * the namespace, which takes its network with it.
     */
    public void tearDown(int i) throws IOException {
        String name = host(i);
        if (!removed.contains(name)) {
            removed.add(name);
            remove(name, tag + "v" + i);
        }
    }

    /** Kills every process of every host and removes every namespace, link and file made. */
    @Override
    public void close() throws IOException {
        List<String> failed = new ArrayList<>();
        for (int i = 0; i < hosts.size(); i++) {
            String name = hosts.get(i);
            if (!removed.contains(name)) {
                removed.add(name);
                try {
                    remove(name, tag + "v" + i);
                } catch (IOException e) {
                    failed.add(e.getMessage());
                }
            }
        }
        String bridge = run("ip", "link", "del", bridge());
        if (bridge != null && !bridge.contains("Cannot find device")) {
            failed.add("ip link del " + bridge() + ": " + bridge.strip());
        }
        if (!failed.isEmpty()) {
            throw new IOException("could not remove " + String.join("; ", failed));
        }
    }

    /**
     * Kills the namespace's processes, deletes its veth pair by the end outside ({@code veth}, or
     * {@code null} if there is none), then the namespace. The kernel tears a deleted namespace
     * down later, in the background, and the veth inside it with it; deleting the pair first frees
     * its names at once, so a LAN made again under the same names does not find them taken.
     */
    static void remove(String name, String veth) throws IOException {
        for (long pid : pids(name)) {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
        for (long pid : pids(name)) {
            ProcessHandle.of(pid).ifPresent(p -> p.onExit().orTimeout(10, TimeUnit.SECONDS).join());
        }
        if (veth != null) {
            String gone = run("ip", "link", "del", veth);
            if (gone != null && !gone.contains("Cannot find device")) {
                throw new IOException("ip link del " + veth + ": " + gone.strip());
            }
        }
        String deleted = run("ip", "netns", "del", name);
        delete(NETNS_ETC.resolve(name));
        if (deleted != null) {
            throw new IOException("ip netns del " + name + ": " + deleted.strip());
        }
    }

    static List<Long> pids(String name) throws IOException {
        Process p = new ProcessBuilder("ip", "netns", "pids", name).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        await(p, "ip netns pids " + name);
        return out.lines().filter(l -> l.matches("\\d+")).map(Long::parseLong).toList();
    }

    /** Removes namespaces, links and files whose creating process is gone. */
    static void sweep() throws IOException {
        List<String> names = new ArrayList<>();
        Process list = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
        String out = new String(list.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        await(list, "ip netns list");
        out.lines().map(l -> l.split("\\s+")[0]).forEach(names::add);
        Process links = new ProcessBuilder("ip", "-o", "link", "show").redirectErrorStream(true).start();
        String shown = new String(links.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        await(links, "ip link show");
        Matcher m = Pattern.compile("^\\d+: (" + PREFIX + "(\\d+)[a-z]\\d*)[@:]", Pattern.MULTILINE).matcher(shown);
        while (m.find()) {
            if (ProcessHandle.of(Long.parseLong(m.group(2))).isEmpty()) {
                run("ip", "link", "del", m.group(1));
            }
        }
        for (String name : names) {
            Matcher n = OURS.matcher(name);
            if (n.matches() && ProcessHandle.of(Long.parseLong(n.group(1))).isEmpty()) {
                remove(name, null);
            }
        }
        if (Files.isDirectory(NETNS_ETC)) {
            try (Stream<Path> etc = Files.list(NETNS_ETC)) {
                for (Path p : etc.toList()) {
                    Matcher e = OURS.matcher(p.getFileName().toString());
                    if (e.matches() && ProcessHandle.of(Long.parseLong(e.group(1))).isEmpty()) {
                        delete(p);
                    }
                }
            }
        }
    }

    /** Runs {@code command}, failing with what it said if it fails. */
    static void must(String... command) throws IOException {
        String failed = run(command);
        if (failed != null) {
            throw new IOException(String.join(" ", command) + ": " + failed.strip());
        }
    }

    /** @return what the command said if it failed, or {@code null} if it succeeded */
    static String run(String... command) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return await(p, String.join(" ", command)) == 0 ? null : out.isBlank() ? "exit " + p.exitValue() : out;
    }

    private static int await(Process p, String what) throws IOException {
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(what + " did not end within 30 s");
            }
            return p.exitValue();
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException(what + " was interrupted");
        }
    }

    static void delete(Path root) throws IOException {
        if (Files.exists(root)) {
            try (Stream<Path> all = Files.walk(root)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
