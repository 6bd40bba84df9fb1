package io.polylink.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.mpi.job.Job;
import io.polylink.mpi.job.Result;
import java.io.ByteArrayOutputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Programs in the style of Open MPI's Java examples ({@code src/test/resources/examples}), in the
 * default package and importing {@code mpi.*}, compiled here against package {@code mpi} alone
 * (no other class of the bundle on the class path) and run unchanged over each method.
 */
class ExamplesTest {

    @TempDir
    static Path work;

    private static Path compiled;

    @BeforeAll
    static void compileAgainstPackageMpiAlone() throws Exception {
        Path api = work.resolve("api");
        Path mpi = locate("mpi/MPI.class").getParent();
        Files.createDirectories(api.resolve("mpi"));
        try (Stream<Path> classes = Files.list(mpi)) {
            for (Path c : classes.toList()) {
                Files.copy(c, api.resolve("mpi").resolve(c.getFileName()));
            }
        }
        compiled = work.resolve("examples");
        Files.createDirectories(compiled);
        List<String> args = new ArrayList<>(List.of("-d", compiled.toString(), "-cp", api.toString(), "--release", "17"));
        for (String name : List.of("Hello", "Ring", "Connectivity")) {
            args.add(locate("examples/" + name + ".java").toString());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int status = javac.run(null, errors, errors, args.toArray(String[]::new));
        assertEquals(0, status, "javac of the examples against package mpi:\n" + errors);
    }

    private static Path locate(String resource) throws URISyntaxException {
        URL url = ExamplesTest.class.getClassLoader().getResource(resource);
        if (url == null || !"file".equals(url.getProtocol())) {
            throw new IllegalStateException(resource + " is not a file on the class path: " + url);
        }
        return Path.of(url.toURI());
    }

    private static Job job(int size, Job.Methods methods) throws Exception {
        return Job.of(size, methods).programs(compiled);
    }

    @ParameterizedTest
    @EnumSource(value = Job.Methods.class, names = {"TCP", "SHM"})
    void helloRunsOnEveryRank(Job.Methods methods) throws Exception {
        try (Job job = job(3, methods)) {
            Result r = job.run("Hello").assertSucceeded();
            for (int rank = 0; rank < 3; rank++) {
                assertTrue(r.out(rank).startsWith("Hello from rank " + rank + " of 3 on "), r.out(rank));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Job.Methods.class, names = {"TCP", "SHM"})
    void ringPassesTheCounterRoundUntilZero(Job.Methods methods) throws Exception {
        try (Job job = job(4, methods)) {
            Result r = job.run("Ring", "5").assertSucceeded();
            assertTrue(r.out(0).contains("rank 0 lowered the counter to 0"), r.out(0));
            assertTrue(r.out(0).contains("rank 0 saw 5 laps"), r.out(0));
            for (int rank = 0; rank < 4; rank++) {
                assertTrue(r.out(rank).contains("rank " + rank + " leaves the ring"), r.out(rank));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Job.Methods.class, names = {"TCP", "SHM_AND_TCP"})
    void connectivityChecksEveryPair(Job.Methods methods) throws Exception {
        try (Job job = job(4, methods)) {
            Result r = job.run("Connectivity", "-v").assertSucceeded();
            assertTrue(r.out(0).contains("Connectivity of 4 ranks: every pair passed"), r.out(0));
            assertEquals(3, r.out(2).lines().filter(l -> l.startsWith("checked")).count(), r.out(2));
        }
    }
}
