package io.polylink.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Context;
import io.polylink.Endpoint;
import io.polylink.Polylink;
import io.polylink.PolylinkSettings;
import io.polylink.Startpoint;
import io.polylink.testkit.DocumentBlocks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The programs of docs/embedding.md, each run as written in a JVM of its own with exactly the
 * documented class path, talking to a context in this JVM through a naming registry they share.
 */
class DocumentedExamplesIT {

    private static final int GREET = 1;
    private static final Duration LIMIT = Duration.ofSeconds(60);

    @TempDir
    Path temp;

    private List<String> childProperties;

    @BeforeEach
    void childProperties() throws Exception {
        // the registry this test's context uses; java.io.tmpdir, where the child's storage goes
        childProperties = List.of("-Dpolylink.registry=" + TestContexts.registry(temp),
            "-Djava.io.tmpdir=" + Files.createDirectories(temp.resolve("child-tmp")));
    }

    /**
     * This JVM's context, sharing the programs' default shm directory: links go by shm, never by
     * the programs' tcp, which advertises every interface of the host.
     */
    private PolylinkSettings tester() {
        return TestContexts.settings(temp, "tester").configure("io.polylink.method.shm", Map.of()).build();
    }

    @Test
    void greeterRunInAChildJvmAnswersThisJvmsContextAndLeavesNothingWhenStopped() throws Exception {
        Path greeter = source("Greeter.java");
        try (Polylink here = Polylink.start(tester());
             ChildJvm child = ChildJvm.run(greeter, childProperties, temp.resolve("greeter.log"))) {
            child.awaitLine("greeter up: context ", LIMIT);
            Context context = here.context();
            BlockingQueue<String> answers = new LinkedBlockingQueue<>();
            Endpoint inbox = context.createEndpoint().register(GREET, (e, m) -> answers.add(m.getString()));
            Startpoint peer = context.lookup("greeter").orElseThrow(() -> new AssertionError("greeter not published"));
            peer.copy().pin("shm").send(GREET, context.allocateBuffer(256).putStartpoint(inbox.startpoint())
                .putString("tester"));
            assertEquals("hello, tester", answers.poll(LIMIT.toSeconds(), TimeUnit.SECONDS), child::output);
            // SIGTERM, as Ctrl-C: the shutdown hook closes the runtime
            assertEquals(143, child.terminate(LIMIT), child::output);
        }
        try (Stream<Path> left = Files.list(temp.resolve("child-tmp"))) {
            assertEquals(List.of(), left.filter(p -> p.getFileName().toString().startsWith("polylink-")).toList(),
                "the child's storage is removed when it is stopped");
        }
    }

    @Test
    void helloRunInAChildJvmIsAnsweredByThisJvmsContext() throws Exception {
        Path hello = source("Hello.java");
        try (Polylink here = Polylink.start(tester())) {
            Context context = here.context();
            Endpoint greeter = context.createEndpoint().register(GREET, (e, m) -> {
                Startpoint replyTo = m.getStartpoint().pin("shm");
                replyTo.send(GREET, context.allocateBuffer(64).putString("hello, " + m.getString()));
            });
            context.publish("greeter", greeter.startpoint());
            try (ChildJvm child = ChildJvm.run(hello, childProperties, temp.resolve("hello.log"), "child")) {
                assertEquals(0, child.awaitExit(LIMIT), child::output);
                assertTrue(child.output().lines().anyMatch("hello, child"::equals), child::output);
            }
        }
    }

    @Test
    void theSettingsExampleBuilds() throws Exception {
        List<String> program = new ArrayList<>(List.of("import io.polylink.PolylinkSettings;",
            "import java.nio.file.Path;", "import java.time.Duration;", "import java.util.Map;",
            "public final class SettingsExample {", "public static void main(String[] args) {"));
        program.addAll(DocumentBlocks.block(DocumentBlocks.doc("embedding.md"), "example: settings"));
        program.addAll(List.of("System.out.println(settings);", "}", "}"));
        Path source = Files.write(temp.resolve("SettingsExample.java"), program);
        try (ChildJvm child = ChildJvm.run(source, childProperties, temp.resolve("settings.log"))) {
            assertEquals(0, child.awaitExit(LIMIT), child::output);
            assertTrue(child.output().startsWith("PolylinkSettings[name=rank-3, methods=[tcp], transforms=[lz4]"),
                child::output);
        }
    }

    @Test
    void theDocumentedDependencyAndClassPathAreThisBuildsArtifacts() throws Exception {
        Path doc = DocumentBlocks.doc("embedding.md");
        String version = System.getProperty("polylink.version");
        assertEquals(List.of("<dependency>", "  <groupId>io.polylink</groupId>",
            "  <artifactId>polylink-embedded</artifactId>", "  <version>" + version + "</version>", "</dependency>"),
            DocumentBlocks.block(doc, "maven-dependency"));
        List<String> jars = new ArrayList<>();
        for (String property : List.of("polylink.api.jar", "polylink.embedded.jar", "polylink.felix.jar")) {
            jars.add(Path.of(System.getProperty(property)).getFileName().toString());
        }
        assertEquals(List.of("java -cp " + String.join(":", jars) + " …"), DocumentBlocks.block(doc, "class-path"));
    }

    private Path source(String name) throws Exception {
        return Files.write(temp.resolve(name), DocumentBlocks.block(DocumentBlocks.doc("embedding.md"), "example: " + name));
    }
}
