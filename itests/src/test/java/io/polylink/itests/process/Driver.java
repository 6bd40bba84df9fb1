package io.polylink.itests.process;

import io.polylink.Context;
import io.polylink.Descriptor;
import io.polylink.Startpoint;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.core.internal.naming.DirectoryNameRegistry;
import io.polylink.method.shm.internal.ShmMethod;
import io.polylink.method.tcp.internal.TcpMethod;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The test's own context: core and tcp (and shm, if asked, in the installation's segment
 * directory) in this JVM, looking nodes up in an installation's registry.
 */
final class Driver implements AutoCloseable {

    /** The system endpoint's handlers (see the core's SystemEndpoint). */
    static final int ECHO = 0;
    static final int RELAY = 1;

    private final EmbeddedContext embedded;

    Driver(Path home) {
        this(home, Map.of());
    }

    /** @param shm the shm method's properties, or empty for no shm; the directory defaults to the installation's */
    Driver(Path home, Map<String, Object> shm) {
        this(home, shm, Map.of());
    }

    /** @param tcp properties of the tcp method besides its loopback bind address */
    Driver(Path home, Map<String, Object> shm, Map<String, Object> tcp) {
        EmbeddedContext context = EmbeddedContext.open();
        if (!shm.isEmpty()) {
            Map<String, Object> properties = new HashMap<>(shm);
            properties.putIfAbsent("directory", Installation.shmDirectory(home).toString());
            context.add(new ShmMethod(properties), 20);
        }
        Map<String, Object> tcpProperties = new HashMap<>(tcp);
        tcpProperties.put("bindAddress", "127.0.0.1");
        // Short, so a link to a stopped peer fails within the tests' bounds rather than after 2 s.
        tcpProperties.putIfAbsent("connectTimeoutMs", "500");
        embedded = context.add(new TcpMethod(tcpProperties), 50)
            .registry(new DirectoryNameRegistry(home.resolve("registry")));
    }

    Context context() {
        return embedded.context();
    }

    /** For adding and removing the driver's methods and transforms. */
    EmbeddedContext embedded() {
        return embedded;
    }

    /** Looks a node up, waiting until what it published offers tcp. */
    Startpoint lookup(String name) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            Optional<Startpoint> found = context().lookup(name);
            if (found.isPresent() && found.get().targets().get(0).table().entries().stream()
                .map(Descriptor::method).anyMatch("tcp"::equals)) {
                return found.get();
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("node " + name + " never published a startpoint with tcp; found " + found);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }

    static void await(BooleanSupplier condition, Duration limit, Supplier<String> what) {
        await(condition, limit, what, TimeUnit.MILLISECONDS.toNanos(1));
    }

    /**
     * Waits, looking every 100 ms, for a condition that makes a node work, such as a shell
     * command, so that looking does not load the node looked at.
     */
    static void awaitSlowly(BooleanSupplier condition, Duration limit, Supplier<String> what) {
        await(condition, limit, what, TimeUnit.MILLISECONDS.toNanos(100));
    }

    /**
     * Waits for the receiving end to drain a sender's window of RSRs in flight. Bounded, so an RSR
     * lost inside the window fails the test with {@code what} instead of hanging it; the short
     * park leaves the cores to the nodes without slowing the stream.
     */
    static void awaitWindow(BooleanSupplier open, Supplier<String> what) {
        await(open, Duration.ofMinutes(1), () -> "the window did not open: " + what.get(),
            TimeUnit.MICROSECONDS.toNanos(50));
    }

    private static void await(BooleanSupplier condition, Duration limit,
            Supplier<String> what, long parkNanos) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within " + limit + ": " + what.get());
            }
            LockSupport.parkNanos(parkNanos);
        }
    }

    @Override
    public void close() {
        embedded.close();
    }
}
