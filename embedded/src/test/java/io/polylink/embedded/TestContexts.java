package io.polylink.embedded;

import io.polylink.Context;
import io.polylink.Endpoint;
import io.polylink.Polylink;
import io.polylink.PolylinkSettings;
import io.polylink.Startpoint;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The tests' contexts: a naming registry and an shm segment directory of the test's own, tcp on
 * loopback only, storage in the test's folder; and the round trip through a peer's system
 * endpoint that shows a link works.
 */
final class TestContexts {

    /** The system endpoint's echo handler: {@code [replyTo][handler][payload]}, in every context. */
    static final int ECHO = 0;
    private static final int REPLY = 1;

    private TestContexts() {}

    static PolylinkSettings.Builder settings(Path temp, String name) {
        return PolylinkSettings.builder()
            .name(name)
            .configure("io.polylink.registry", Map.of("directory", registry(temp).toString()))
            .configure("io.polylink.method.shm", Map.of("directory", shm(temp).toString()))
            .configure("io.polylink.method.tcp", Map.of("bindAddress", "127.0.0.1"))
            .storage(temp.resolve("storage-" + name));
    }

    static Path registry(Path temp) {
        return temp.resolve("registry");
    }

    static Path shm(Path temp) {
        return temp.resolve("shm");
    }

    /** @return the system endpoint {@code name} published, once it offers {@code stack} */
    static Startpoint lookup(Context context, String name, String stack) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            Optional<Startpoint> found = context.lookup(name);
            if (found.isPresent() && found.get().targets().get(0).table().entries().stream()
                .anyMatch(d -> d.stack().equals(stack))) {
                return found.get();
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(name + " never published a startpoint offering " + stack + "; found " + found);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10)); // the registry is files, with no change events
        }
    }

    /**
     * Sends {@code text} to {@code peer}'s echo handler over {@code stack} only, with the echo
     * asked for over {@code stack} first; or, for a null {@code stack}, as selection chooses.
     *
     * @return the echoed text, or null if none came within 10 s
     */
    static String echo(Polylink from, Startpoint peer, String stack, String text) throws InterruptedException {
        Context context = from.context();
        BlockingQueue<String> replies = new LinkedBlockingQueue<>();
        try (Endpoint endpoint = context.createEndpoint().register(REPLY, (e, m) -> replies.add(m.getString()))) {
            Startpoint replyTo = stack == null ? endpoint.startpoint() : endpoint.startpoint().editTable(t -> t.prefer(stack));
            Startpoint target = stack == null ? peer.copy() : peer.copy().pin(stack);
            target.send(ECHO, context.allocateBuffer(256).putStartpoint(replyTo).putInt(REPLY).putString(text));
            return replies.poll(10, TimeUnit.SECONDS);
        }
    }

    static Duration limit() {
        return Duration.ofSeconds(30);
    }
}
