package io.polylink.itests.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.testkit.DocumentBlocks;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * The test programs (src/test/resources/mpi/*.java: the default package, importing package mpi),
 * compiled as a user compiles them: against the distribution's lib/mpi/polylink-mpi.jar alone.
 */
final class MpiPrograms {

    private MpiPrograms() {}

    /**
     * Writes the Ring of docs/mpi.md into {@code work} and compiles it with the documented javac
     * command.
     *
     * @return the documented mpirun command that runs it
     */
    static String documentedRing(Path work) throws Exception {
        Path doc = DocumentBlocks.doc("mpi.md");
        Files.write(work.resolve("Ring.java"), DocumentBlocks.block(doc, "example: Ring.java"));
        List<String> commands = DocumentBlocks.block(doc, "mpirun-commands");
        assertEquals(2, commands.size(), "javac, then mpirun: " + commands);
        try (MpirunProcess javac = MpirunProcess.shell(work, commands.get(0))) {
            assertEquals(0, javac.awaitExit(Duration.ofMinutes(2)), javac.output());
        }
        return commands.get(1);
    }

    /** Asserts that {@code out} has every line docs/mpi.md shows the Ring printing. */
    static void assertDocumentedRingOutput(String out) throws IOException {
        for (String line : DocumentBlocks.block(DocumentBlocks.doc("mpi.md"), "mpirun-output")) {
            assertTrue(out.lines().anyMatch(line::equals), "the documented line '" + line + "' is missing:\n" + out);
        }
    }

    /** @return the jar programs compile against */
    static Path api() {
        return Installation.dist().resolve("lib/mpi/polylink-mpi.jar");
    }

    /**
     * Compiles the named programs into {@code into}, where their sources are written too.
     *
     * @return {@code into}
     */
    static Path compile(Path into, String... names) throws IOException {
        Files.createDirectories(into);
        List<String> args = new ArrayList<>(List.of("-d", into.toString(), "-cp", api().toString(), "--release", "17"));
        for (String name : names) {
            try (InputStream source = MpiPrograms.class.getResourceAsStream("/mpi/" + name + ".java")) {
                if (source == null) {
                    throw new IllegalArgumentException("no program mpi/" + name + ".java among the test resources");
                }
                Path file = into.resolve(name + ".java");
                Files.copy(source, file);
                args.add(file.toString());
            }
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int status = javac.run(null, errors, errors, args.toArray(String[]::new));
        assertEquals(0, status, "javac " + String.join(" ", names) + " against " + api() + ":\n" + errors);
        return into;
    }
}
