package io.polylink.itests.update;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.polylink.Descriptor;
import io.polylink.Endpoint;
import io.polylink.MessageBuffer;
import io.polylink.PolylinkException;
import io.polylink.Startpoint;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.core.internal.naming.DirectoryNameRegistry;
import io.polylink.method.compress.internal.Lz4Transform;
import io.polylink.method.shm.internal.ShmMethod;
import io.polylink.method.tcp.internal.TcpMethod;
import io.polylink.spi.CommunicationMethod;
import io.polylink.spi.Transform;
import io.polylink.testkit.Await;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.FrameworkListener;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.wiring.BundleRevisions;
import org.osgi.framework.wiring.BundleWiring;
import org.osgi.framework.wiring.FrameworkWiring;

/**
 * A Felix framework in this JVM runs the built core, tcp, shm and lz4 bundles; a context embedded
 * in the test echoes RSRs through it over tcp, shm and lz4/tcp. The three bundles are updated and
 * refreshed 1,000 times in turn, with every link carrying echoes again after each cycle. Then
 * the process holds what it held before: threads, file descriptors, files and mappings in the
 * segment directory, one revision per bundle, and no class loader of an old revision.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class UpdateCyclesIT {

    private static final int CYCLES = Integer.getInteger("polylink.update.cycles", 1000);
    /** Cycles before the baseline: classes loaded, pools filled, caches warm. */
    private static final int WARM_UP = 30;
    private static final int ECHOES = 4;
    private static final String NAME = "updated";
    private static final Duration STEP = Duration.ofSeconds(10);
    private static final Duration SETTLE = Duration.ofSeconds(60);
    /** What the cycles may take before the test stops and reports the rate instead. */
    private static final Duration BUDGET = Duration.ofMinutes(5);

    private static final String TCP = "io.polylink.method.tcp";
    private static final String SHM = "io.polylink.method.shm";
    private static final String LZ4 = "io.polylink.method.compress";

    @TempDir
    Path temp;

    private Path shm;
    private LaunchedFramework framework;
    private EmbeddedContext peer;
    private final List<String> frameworkErrors = new CopyOnWriteArrayList<>();
    private final List<String> problems = new CopyOnWriteArrayList<>();
    private final List<String> refusals = new CopyOnWriteArrayList<>();
    private final AtomicInteger refused = new AtomicInteger();

    /** A revision replaced by an update, by its class loader, which must become unreachable. */
    private record OldRevision(String bundle, int cycle, WeakReference<ClassLoader> loader) {}

    @AfterEach
    void cleanUp() throws Exception {
        try {
            if (peer != null) {
                peer.close();
            }
        } finally {
            try {
                if (framework != null) {
                    framework.close();
                }
            } finally {
                if (shm != null) {
                    deleteTree(shm);
                }
            }
        }
    }

    @Test
    void thousandUpdatesOfTcpShmAndLz4LeaveThreadsFilesMappingsRevisionsAndClassLoadersAsTheyWere()
            throws Exception {
        shm = Files.isDirectory(Path.of("/dev/shm"))
            ? Files.createTempDirectory(Path.of("/dev/shm"), "polylink-update-") : temp.resolve("shm");
        Files.createDirectories(shm);
        Path registry = temp.resolve("registry");
        int port = freePort();
        framework = LaunchedFramework.start(bundles(), temp.resolve("felix"), Map.of("polylink.name", NAME),
            Map.of(TCP, Map.of("bindAddress", "127.0.0.1", "port", Integer.toString(port)),
                SHM, Map.of("directory", shm.toString()),
                "io.polylink.registry", Map.of("directory", registry.toString())),
            List.of("lz4-java-", "polylink-method-compress-", "polylink-method-tcp-", "polylink-method-shm-"));
        framework.bundleContext().addFrameworkListener(e -> {
            if (e.getType() == FrameworkEvent.ERROR || e.getType() == FrameworkEvent.WARNING) {
                frameworkErrors.add(e + ": " + e.getThrowable());
            }
        });
        Bundle tcp = framework.bundle(TCP);
        Bundle shmBundle = framework.bundle(SHM);
        Bundle lz4 = framework.bundle(LZ4);
        awaitBound(tcp, "tcp");
        awaitBound(shmBundle, "shm");
        awaitBound(lz4, "lz4");
        assertEquals(shm.toString(), methodProperty(shmBundle, "directory"),
            () -> "the framework's shm method must use the test's segment directory: " + describe(shmBundle));

        peer = EmbeddedContext.open()
            .add(new ShmMethod(Map.of("directory", shm.toString())), 20)
            .add(new TcpMethod(Map.of("bindAddress", "127.0.0.1")), 50)
            .add(new Lz4Transform(Map.of()))
            .registry(new DirectoryNameRegistry(registry));
        List<Link> links = links(lookup());
        List<Updated> order = List.of(new Updated(tcp, "tcp"), new Updated(shmBundle, "shm"), new Updated(lz4, "lz4"));
        List<OldRevision> old = new ArrayList<>();
        links.forEach(Link::check);

        for (int i = 0; i < WARM_UP; i++) {
            cycle(order.get(i % order.size()), i, links, old);
        }
        order.forEach(Updated::reset);
        Census baseline = settle(old);
        System.out.println("update cycles: baseline after " + WARM_UP + " warm-up cycles: " + baseline.summary()
            + "; " + memory());

        int mostMappings = 0;
        long start = System.nanoTime();
        for (int i = 0; i < CYCLES; i++) {
            cycle(order.get(i % order.size()), WARM_UP + i, links, old);
            mostMappings = Math.max(mostMappings, Census.mappingsNow(shm));
            long elapsed = System.nanoTime() - start;
            if ((i + 1) % 100 == 0) {
                System.out.printf("update cycles: %d after %.1f s: %s; old revisions not yet collected: %d%n",
                    i + 1, elapsed / 1e9, census().summary(), old.stream().filter(o -> o.loader().get() != null).count());
            }
            if (elapsed > BUDGET.toNanos()) {
                throw new AssertionError("only " + (i + 1) + " of " + CYCLES + " update cycles within " + BUDGET + ": "
                    + order + "; sends refused and retried: " + refused.get() + " " + refusals);
            }
        }
        long elapsed = System.nanoTime() - start;
        System.out.printf("update cycles: %d cycles in %.1f s, %.1f cycles/s; per cycle, mean (max) in ms: %s; "
                + "sends refused and retried: %d %s; most segment mappings between collections: %d%n", CYCLES,
            elapsed / 1e9, CYCLES / (elapsed / 1e9), order, refused.get(), refusals, mostMappings);

        long settleStart = System.nanoTime();
        Census end = awaitBaseline(baseline, old);
        System.out.printf("update cycles: back to baseline %.1f s after the last cycle: %s; %s%n",
            (System.nanoTime() - settleStart) / 1e9, end.summary(), memory());
        assertEquals(List.of(), problems, "echoes out of order");
        assertEquals(List.of(), frameworkErrors, "framework errors and warnings");
    }

    // ---- one cycle

    /** A bundle the cycles update, with how long its steps took. */
    private static final class Updated {
        private static final String[] STEPS = {"update", "refresh", "rebind", "echoes"};
        final Bundle bundle;
        final String name;
        private final long[] total = new long[STEPS.length];
        private final long[] max = new long[STEPS.length];
        private int cycles;

        Updated(Bundle bundle, String name) {
            this.bundle = bundle;
            this.name = name;
        }

        void took(long... nanos) {
            cycles++;
            for (int i = 0; i < STEPS.length; i++) {
                total[i] += nanos[i];
                max[i] = Math.max(max[i], nanos[i]);
            }
        }

        void reset() {
            cycles = 0;
            Arrays.fill(total, 0);
            Arrays.fill(max, 0);
        }

        @Override
        public String toString() {
            StringBuilder b = new StringBuilder(name).append(" (").append(cycles).append(" cycles)");
            for (int i = 0; i < STEPS.length; i++) {
                b.append(i == 0 ? " " : ", ").append(STEPS[i]).append(String.format(" %.1f (%.0f)",
                    cycles == 0 ? 0 : total[i] / 1e6 / cycles, max[i] / 1e6));
            }
            return b.toString();
        }
    }

    /**
     * Updates and refreshes one bundle, then checks the framework let go of the replaced revision
     * (one revision left, nothing pending removal, the old wiring neither current nor in use), waits
     * for the core to bind the new service and for every link to carry echoes again.
     */
    private void cycle(Updated updated, int cycle, List<Link> links, List<OldRevision> old) throws Exception {
        Bundle bundle = updated.bundle;
        BundleWiring replaced = bundle.adapt(BundleWiring.class);
        old.add(new OldRevision(bundle.getSymbolicName(), cycle, new WeakReference<>(replaced.getClassLoader())));
        long t0 = System.nanoTime();
        bundle.update();
        long t1 = System.nanoTime();
        refresh(bundle, cycle);
        long t2 = System.nanoTime();
        int revisions = bundle.adapt(BundleRevisions.class).getRevisions().size();
        Collection<Bundle> pending = framework.bundleContext().getBundle(0).adapt(FrameworkWiring.class)
            .getRemovalPendingBundles();
        if (revisions != 1 || !pending.isEmpty() || replaced.isCurrent() || replaced.isInUse()) {
            throw new AssertionError("cycle " + cycle + ": after refreshing " + bundle.getSymbolicName() + " it has "
                + revisions + " revisions, bundles pending removal " + pending + ", the replaced wiring "
                + (replaced.isCurrent() ? "is current" : replaced.isInUse() ? "is in use by "
                + replaced.getProvidedWires(null) : "is gone"));
        }
        awaitBound(bundle, updated.name);
        long t3 = System.nanoTime();
        for (Link link : links) {
            link.check();
        }
        updated.took(t1 - t0, t2 - t1, t3 - t2, System.nanoTime() - t3);
    }

    private void refresh(Bundle bundle, int cycle) throws InterruptedException {
        CountDownLatch refreshed = new CountDownLatch(1);
        List<FrameworkEvent> events = new CopyOnWriteArrayList<>();
        FrameworkListener listener = e -> {
            events.add(e);
            if (e.getType() == FrameworkEvent.PACKAGES_REFRESHED) {
                refreshed.countDown();
            }
        };
        framework.bundleContext().getBundle(0).adapt(FrameworkWiring.class).refreshBundles(List.of(bundle), listener);
        if (!refreshed.await(STEP.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("cycle " + cycle + ": refreshing " + bundle.getSymbolicName()
                + " did not finish within " + STEP + "; events " + events + "; " + threadDump());
        }
    }

    /** Waits until the bundle's method or transform is registered, bound by the core and started. */
    private void awaitBound(Bundle bundle, String name) {
        Await.until(() -> boundByCore(bundle, name), STEP, () -> bundle.getSymbolicName() + " (state "
            + bundle.getState() + ") not bound by the core again: its services " + describe(bundle)
            + ", the context's methods " + Arrays.toString(contextMethods()));
    }

    private boolean boundByCore(Bundle bundle, String name) {
        ServiceReference<?>[] services = bundle.getRegisteredServices();
        if (services == null) {
            return false;
        }
        Bundle core = framework.bundle("io.polylink.core");
        boolean method = !name.equals("lz4");
        for (ServiceReference<?> ref : services) {
            Object property = ref.getProperty(method ? CommunicationMethod.NAME_PROPERTY : Transform.NAME_PROPERTY);
            Bundle[] users = ref.getUsingBundles();
            if (name.equals(property) && users != null && Arrays.asList(users).contains(core)) {
                // A method is in the context's table once the core has started it.
                return !method || Arrays.asList(contextMethods()).contains(name);
            }
        }
        return false;
    }

    private String[] contextMethods() {
        ServiceReference<?> context = framework.service("io.polylink.Context");
        Object methods = context == null ? null : context.getProperty("polylink.methods");
        return methods instanceof String[] names ? names : new String[0];
    }

    private static String describe(Bundle bundle) {
        ServiceReference<?>[] services = bundle.getRegisteredServices();
        return services == null ? "none" : Arrays.stream(services).map(r -> Arrays.stream(r.getPropertyKeys())
            .map(k -> k + "=" + r.getProperty(k)).toList() + " used by " + Arrays.toString(r.getUsingBundles()))
            .toList().toString();
    }

    /** @return a property of the bundle's method service */
    private static Object methodProperty(Bundle bundle, String key) {
        ServiceReference<?>[] services = bundle.getRegisteredServices();
        return services == null ? null : Arrays.stream(services)
            .filter(r -> r.getProperty(CommunicationMethod.NAME_PROPERTY) != null)
            .map(r -> r.getProperty(key)).findFirst().orElse(null);
    }

    // ---- before and after

    /**
     * Waits, collecting garbage, until the warm-up's old revisions are gone and two censuses in a
     * row agree: a baseline of a quiet process, not of one still letting go of the warm-up.
     */
    private Census settle(List<OldRevision> old) {
        long deadline = System.nanoTime() + SETTLE.toNanos();
        Census last = null;
        while (true) {
            System.gc();
            Census now = census();
            boolean collected = old.stream().allMatch(o -> o.loader().get() == null);
            if (collected && now.equals(last)) {
                return now;
            }
            if (System.nanoTime() - deadline > 0) {
                System.out.println("update cycles: no quiet baseline within " + SETTLE + " (warm-up revisions alive: "
                    + alive(old) + "); taking it as it is");
                return now;
            }
            last = now;
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
    }

    /** Waits, collecting garbage, until the census is back at the baseline and every old loader is gone. */
    private Census awaitBaseline(Census baseline, List<OldRevision> old) {
        long deadline = System.nanoTime() + SETTLE.toNanos();
        while (true) {
            System.gc();
            Census now = census();
            List<String> excess = now.excessOver(baseline);
            String alive = alive(old);
            if (excess.isEmpty() && alive.isEmpty()) {
                return now;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not back to the baseline within " + SETTLE + " of the last of " + CYCLES
                    + " update cycles:\n  " + String.join("\n  ", excess) + "\n  class loaders of old revisions "
                    + "still reachable: " + (alive.isEmpty() ? "none" : alive) + "\n  baseline: " + baseline
                    + "\n  now: " + now + "\n  segment files mapped: " + Census.mapped(shm) + "\n  " + threadDump());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
    }

    private Census census() {
        return Census.take(shm, framework.bundleContext(), temp.resolve("felix"));
    }

    /** Figures for the report, not compared: the heap holds whatever the collector left. */
    private static String memory() {
        return String.format("heap used %.1f MiB, classes loaded %d (unloaded so far %d)",
            ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1048576.0,
            ManagementFactory.getClassLoadingMXBean().getLoadedClassCount(),
            ManagementFactory.getClassLoadingMXBean().getUnloadedClassCount());
    }

    /** @return per bundle, how many old revisions' loaders are reachable and the cycles of a few */
    private static String alive(List<OldRevision> old) {
        Map<String, List<Integer>> byBundle = new TreeMap<>();
        for (OldRevision o : old) {
            if (o.loader().get() != null) {
                byBundle.computeIfAbsent(o.bundle(), b -> new ArrayList<>()).add(o.cycle());
            }
        }
        return byBundle.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue().size() + " (cycles "
            + e.getValue().subList(0, Math.min(10, e.getValue().size())) + (e.getValue().size() > 10 ? "…" : "") + ")")
            .collect(Collectors.joining(", "));
    }

    private static String threadDump() {
        return "polylink threads: " + Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName()
            .startsWith("polylink-")).map(t -> t.getName() + " " + t.getState()).sorted().toList();
    }

    // ---- traffic

    /**
     * One stack in both directions: echoes leave the peer pinned to it, and come back over the
     * reply table the peer sends along, which lists the same stack first.
     */
    private final class Link {
        private final String stack;
        private final int handler;
        private final Startpoint out;
        private final Startpoint replyTo;
        private final AtomicInteger received = new AtomicInteger();
        private final MessageBuffer message;
        private final byte[] body = "compressible words, again and again; ".repeat(8).getBytes();
        private int sent;

        Link(String stack, int handler, Startpoint out, Startpoint replyTo) {
            this.stack = stack;
            this.handler = handler;
            this.out = out;
            this.replyTo = replyTo;
            this.message = peer.context().allocateBuffer(body.length + 256);
        }

        void received(MessageBuffer m) {
            int sequence = m.getInt();
            int expected = received.get();
            if (sequence != expected && problems.size() < 20) {
                problems.add(stack + ": expected echo " + expected + ", got " + sequence);
            }
            received.set(Math.max(expected, sequence + 1));
        }

        /** Sends {@link #ECHOES} echoes and waits for all to come back. */
        void check() {
            for (int i = 0; i < ECHOES; i++) {
                send();
            }
            Await.until(() -> received.get() == sent, STEP, () -> stack + ": " + received.get() + " of " + sent
                + " echoes came back; the peer's links " + peer.links() + "; " + out.explain().get(0));
        }

        /** A send refused (the link is moving or connecting) is tried again; one accepted is counted. */
        private void send() {
            long deadline = System.nanoTime() + STEP.toNanos();
            while (true) {
                try {
                    out.send(0, message.clear().putStartpoint(replyTo).putInt(handler).putInt(sent)
                        .putRaw(body, 0, body.length));
                    sent++;
                    return;
                } catch (PolylinkException e) {
                    refused.incrementAndGet();
                    if (refusals.size() < 5) {
                        refusals.add(stack + ": " + e.getMessage());
                    }
                    if (System.nanoTime() - deadline > 0) {
                        throw new AssertionError(stack + ": sends refused for " + STEP + ": " + e.getMessage(), e);
                    }
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                }
            }
        }
    }

    private Startpoint lookup() {
        Supplier<Optional<Startpoint>> found = () -> peer.context().lookup(NAME);
        Await.until(() -> found.get().map(s -> methods(s).containsAll(List.of("tcp", "shm"))).orElse(false), STEP,
            () -> NAME + " not published with tcp and shm: " + found.get().map(Startpoint::targets));
        return found.get().orElseThrow();
    }

    private static List<String> methods(Startpoint s) {
        return s.targets().get(0).table().entries().stream().map(Descriptor::method).toList();
    }

    private List<Link> links(Startpoint target) {
        Descriptor theirTcp = entry(target.targets().get(0).table().entries(), "tcp");
        Descriptor ourTcp = entry(peer.context().descriptorTable().entries(), "tcp");
        Endpoint back = peer.context().createEndpoint();
        List<Link> links = List.of(
            new Link("tcp", 1, target.copy().pin("tcp"), back.startpoint().editTable(t -> t.prefer("tcp"))),
            new Link("shm", 2, target.copy().pin("shm"), back.startpoint().editTable(t -> t.prefer("shm"))),
            new Link("lz4/tcp", 3,
                target.copy().editTable(t -> t.insert(0, new Descriptor("lz4/tcp", theirTcp.address()))).pin("lz4/tcp"),
                back.startpoint().editTable(t -> t.insert(0, new Descriptor("lz4/tcp", ourTcp.address())))));
        for (Link link : links) {
            back.register(link.handler, (e, m) -> link.received(m));
        }
        return links;
    }

    private static Descriptor entry(List<Descriptor> entries, String stack) {
        return entries.stream().filter(d -> d.stack().equals(stack)).findFirst()
            .orElseThrow(() -> new AssertionError("no " + stack + " entry in " + entries));
    }

    // ---- set-up

    private static Path bundles() {
        String dist = System.getProperty("polylink.dist");
        if (dist == null || !Files.isDirectory(Path.of(dist, "bundle"))) {
            throw new IllegalStateException("polylink.dist (" + dist + ") is not the unpacked distribution; "
                + "run this test through Maven (mvn verify)");
        }
        return Path.of(dist, "bundle");
    }

    private static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
