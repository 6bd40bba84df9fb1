package io.polylink.core.internal.naming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.PolylinkException;
import io.polylink.Startpoint;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.testkit.Await;
import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.lang.annotation.Annotation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectoryNameRegistryTest {

    @TempDir
    Path registry;

    private static DirectoryNameRegistry.Config config(Path directory) {
        return config("directory", directory);
    }

    private static DirectoryNameRegistry.Config config(String type, Path directory) {
        return new DirectoryNameRegistry.Config() {
            @Override
            public String type() {
                return type;
            }

            @Override
            public String directory() {
                return directory.toString();
            }

            @Override
            public Class<? extends Annotation> annotationType() {
                return DirectoryNameRegistry.Config.class;
            }
        };
    }

    @Test
    void underAnotherRegistryTypeItServesNothingAndSaysWhichRegistryIsMissing() throws Exception {
        DirectoryNameRegistry registry = new DirectoryNameRegistry(config("zookeeper", this.registry));

        IOException e = assertThrows(IOException.class, () -> registry.publish("node-a", "polylink:AAAA"));
        assertTrue(e.getMessage().contains("type=zookeeper, and no registry of that type runs: start its bundle "
            + "(polylink-registry-zookeeper) or set type=directory"), e.getMessage());
        assertThrows(IOException.class, () -> registry.lookup("node-a"));

        registry.modified(config(this.registry));
        registry.publish("node-a", "polylink:AAAA");
        assertEquals(Optional.of("polylink:AAAA"), registry.lookup("node-a"));
    }

    @Test
    void aNewDirectoryTakesThePublishedNamesAlong(@TempDir Path temp) throws Exception {
        Path first = temp.resolve("first");
        Path second = temp.resolve("second");
        DirectoryNameRegistry registry = new DirectoryNameRegistry(config(first));
        registry.publish("node-a", "polylink:AAAA");
        registry.publish("gone", "polylink:BBBB");
        registry.unpublish("gone");

        registry.modified(config(second));

        assertEquals(Optional.of("polylink:AAAA"), registry.lookup("node-a"));
        assertEquals(Optional.empty(), registry.lookup("gone"));
        assertFalse(Files.exists(first.resolve("node-a.startpoint")), "the old directory keeps nothing");
        try (var files = Files.list(second)) {
            assertEquals(1, files.count(), "only the published name, no temporary file");
        }
    }

    /**
     * Looks a name up in a context on {@link #registry}, on a thread of its own, so that a lookup
     * that blocks fails the test instead of hanging it; {@code unblock} then ends the wait.
     */
    private String lookupRefusal(String name, Runnable unblock) throws Exception {
        try (EmbeddedContext context = EmbeddedContext.open().registry(new DirectoryNameRegistry(registry))) {
            Startpoint own = context.context().createEndpoint().startpoint();
            context.context().publish("healthy", own);
            CompletableFuture<Optional<Startpoint>> lookup = new CompletableFuture<>();
            Thread looking = new Thread(() -> {
                try {
                    lookup.complete(context.context().lookup(name));
                } catch (Throwable t) {
                    lookup.completeExceptionally(t);
                }
            }, "test-lookup");
            looking.start();
            try {
                lookup.get(5, TimeUnit.SECONDS);
                throw new AssertionError("looking up " + name + " succeeded");
            } catch (TimeoutException blocked) {
                unblock.run();
                looking.join(5000);
                throw new AssertionError("looking up " + name + " blocked");
            } catch (ExecutionException refused) {
                assertEquals(PolylinkException.class, refused.getCause().getClass(), refused.getCause().toString());
                assertEquals(own.targets(), context.context().lookup("healthy").orElseThrow().targets(),
                    "the registry still serves other names");
                return refused.getCause().getMessage();
            } finally {
                looking.join(5000);
            }
        } finally {
            Await.noThreads("test-lookup");
            Await.noThreads("polylink-");
        }
    }

    @Test
    void aFifoUnderANameIsRefusedWithoutOpeningIt() throws Exception {
        Path fifo = registry.resolve("fifo.startpoint");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assertEquals(0, mkfifo.waitFor(), "mkfifo " + fifo);

        String refusal = lookupRefusal("fifo", () -> {
            try (OutputStream writer = Files.newOutputStream(fifo)) {
                writer.flush();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });

        assertEquals("cannot look up 'fifo': " + fifo + " is a FIFO, socket or device, not a published startpoint: "
            + "the registry reads only the regular files it writes; remove it", refusal);
    }

    @Test
    void aFileLargerThanAnyStartpointIsRefusedWithoutReadingIt() throws Exception {
        Path huge = registry.resolve("huge.startpoint");
        try (RandomAccessFile file = new RandomAccessFile(huge.toFile(), "rw")) {
            file.setLength(64L << 20);
        }

        String refusal = lookupRefusal("huge", () -> { });

        assertEquals("cannot look up 'huge': " + huge + " is larger than 65536 bytes, which no published startpoint "
            + "is; remove it", refusal);
    }

    @Test
    void aLinkUnderANameIsNotFollowed() throws Exception {
        Path target = registry.resolve("elsewhere.txt");
        Files.writeString(target, "polylink:AAAA");
        Path link = Files.createSymbolicLink(registry.resolve("link.startpoint"), target);

        String refusal = lookupRefusal("link", () -> { });

        assertEquals("cannot look up 'link': " + link + " is a symbolic link, not a published startpoint: the "
            + "registry reads only the regular files it writes; remove it", refusal);
    }

    @Test
    void aNameNobodyPublishedIsSimplyAbsent() throws Exception {
        assertEquals(Optional.empty(), new DirectoryNameRegistry(registry).lookup("nobody"));
    }
}
