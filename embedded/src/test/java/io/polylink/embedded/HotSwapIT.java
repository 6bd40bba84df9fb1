package io.polylink.embedded;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Polylink;
import io.polylink.Startpoint;
import io.polylink.testkit.EchoStreams;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shm method's bundle comes and goes through an embedded context's deploy directory, three
 * times, while numbered echo streams run from it to a second context: the links move to shm and
 * back to tcp each time, and every RSR comes back once and in order.
 */
class HotSwapIT {

    private static final Duration LIMIT = Duration.ofSeconds(30);

    @TempDir
    Path temp;

    @Test
    void aMethodBundleDeployedAndRemovedUnderTrafficLosesNothing() throws Exception {
        Path shmBundle = Path.of(System.getProperty("polylink.shm.jar"));
        // a starts with tcp alone, and installs nothing on demand: shm comes only through deploy/
        try (Polylink a = Polylink.start(TestContexts.settings(temp, "a").methods("tcp")
                 .configure("io.polylink.core", Map.of("install.enabled", false)).build());
             Polylink b = Polylink.start(TestContexts.settings(temp, "b").build());
             EchoStreams streams = new EchoStreams(a.context(), 4, 32, 256)) {
            Startpoint atB = TestContexts.lookup(a.context(), "b", "shm");
            Path deployed = a.deployDirectory().resolve("shm.jar");
            streams.begin("swap", atB, streams.sink());
            awaitStack(streams, "tcp");
            streams.awaitEchoes(500, LIMIT);

            for (int cycle = 0; cycle < 3; cycle++) {
                drop(shmBundle, deployed, a.deployDirectory());
                awaitStack(streams, "shm");
                streams.awaitEchoes(500, LIMIT);
                Files.delete(deployed);
                awaitStack(streams, "tcp");
                streams.awaitEchoes(500, LIMIT);
            }

            EchoStreams.Result result = streams.end(LIMIT);
            System.out.println("hot swap in an embedded context: " + result);
            assertTrue(result.perfect(), result::toString);
        }
    }

    /** Writes the jar beside the deploy directory and moves it in, so FileInstall never sees half of it. */
    private static void drop(Path jar, Path target, Path deploy) throws Exception {
        Path part = deploy.resolveSibling("shm.jar.part");
        Files.copy(jar, part, StandardCopyOption.REPLACE_EXISTING);
        Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static void awaitStack(EchoStreams streams, String stack) {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!streams.requestStack().equals(stack)) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("the requests never moved to " + stack + ": " + streams.explainRequests());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10)); // selection has no change event to wait on
        }
    }
}
