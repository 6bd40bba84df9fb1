package io.polylink.itests.embedding;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Context;
import io.polylink.Descriptor;
import io.polylink.PolylinkSettings;
import io.polylink.Startpoint;
import io.polylink.testkit.EchoStreams;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** The test's own context, and what shows a link to a framework's context works. */
final class Links {

    /** A pre-shared key for aead, the same in every context of a test. */
    static final String PSK = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";

    private Links() {}

    /** The test's context: tcp on loopback, shm in {@code shm}, names in {@code registry}, lz4 and aead. */
    static PolylinkSettings settings(Path temp, Path registry, Path shm) {
        return PolylinkSettings.builder()
            .name("tester")
            .transforms("lz4", "aead")
            .configure("io.polylink.registry", Map.of("directory", registry.toString()))
            .configure("io.polylink.method.shm", Map.of("directory", shm.toString()))
            .configure("io.polylink.method.tcp", Map.of("bindAddress", "127.0.0.1"))
            .configure("io.polylink.method.crypto", Map.of("psk", PSK))
            .storage(temp.resolve("tester-storage"))
            .build();
    }

    /** @return what {@code name} published, once it offers tcp and shm */
    static Startpoint lookup(Context context, String name, Duration limit, Diagnosis diagnosis) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            Optional<Startpoint> found = context.lookup(name);
            if (found.isPresent() && found.get().targets().get(0).table().entries().stream().map(Descriptor::stack)
                .toList().containsAll(java.util.List.of("tcp", "shm"))) {
                return found.get();
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("nothing offering tcp and shm was published as '" + name + "' within "
                    + limit + " (found " + found + ")\n" + diagnosis.describe());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // the registry is files, with no change events
        }
    }

    /**
     * Runs numbered echo streams to {@code peer}'s system endpoint over {@code stack} alone and
     * asserts every echo came back once and in order. A transform's stack is added to the copy's
     * table in front of the peer's tcp descriptor.
     */
    static void assertEchoes(EchoStreams streams, Startpoint peer, String stack, Diagnosis diagnosis) {
        Startpoint target = peer.copy();
        if (stack.contains("/")) {
            Descriptor tcp = peer.targets().get(0).table().entries().stream().filter(d -> d.stack().equals("tcp"))
                .findFirst().orElseThrow();
            target.editTable(t -> t.insert(0, new Descriptor(stack, tcp.address())));
        }
        streams.begin(stack, target.pin(stack), streams.sink());
        Duration limit = Duration.ofSeconds(30);
        try {
            streams.awaitEchoes(200, limit);
        } catch (IllegalStateException e) {
            throw new AssertionError(stack + ": " + e.getMessage() + "\n" + diagnosis.describe(), e);
        }
        EchoStreams.Result result = streams.end(limit);
        System.out.println(result);
        assertTrue(result.perfect(), () -> result + "\n" + diagnosis.describe());
    }

    /** What to show when a framework's context cannot be reached: its log, its bundles. */
    @FunctionalInterface
    interface Diagnosis {
        String describe();
    }
}
