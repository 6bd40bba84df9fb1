package io.polylink.itests.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ranks started as {@code srun} starts them (Slurm itself is not needed): each process gets
 * Slurm's {@code SLURM_JOB_ID}, {@code SLURM_STEP_ID}, {@code SLURM_PROCID} and
 * {@code SLURM_NTASKS} and a shared {@code POLYLINK_MPI_REGISTRY}, and runs
 * {@code java -cp "lib/mpi/*:." Hello} with no launcher of Polylink's.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class SlurmIT {

    @TempDir
    Path work;

    @Test
    void ranksTakeRankSizeAndJobFromSlurmsVariables() throws Exception {
        Path programs = MpiPrograms.compile(work.resolve("programs"), "Hello");
        Path registry = Files.createDirectories(work.resolve("registry"));
        Path tmp = Files.createDirectories(work.resolve("tmp"));
        List<Process> ranks = new ArrayList<>();
        try {
            for (int r = 0; r < 2; r++) {
                ProcessBuilder b = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"),
                    "-Djava.io.tmpdir=" + tmp, "-cp", Installation.dist().resolve("lib/mpi") + File.separator + "*"
                    + File.pathSeparator + programs, "Hello")
                    .redirectErrorStream(true).redirectOutput(work.resolve("rank-" + r + ".log").toFile());
                b.environment().putAll(Map.of("SLURM_JOB_ID", "4242", "SLURM_STEP_ID", "0", "SLURM_PROCID",
                    Integer.toString(r), "SLURM_NTASKS", "2", "POLYLINK_MPI_REGISTRY", registry.toString()));
                ranks.add(b.start());
            }
            for (int r = 0; r < 2; r++) {
                String log = work.resolve("rank-" + r + ".log").toString();
                assertTrue(ranks.get(r).waitFor(90, TimeUnit.SECONDS), "rank " + r + " did not end");
                String out = Files.readString(Path.of(log), StandardCharsets.UTF_8);
                assertEquals(0, ranks.get(r).exitValue(), out);
                assertTrue(out.contains("hello from rank " + r + " of 2"), out);
            }
            try (Stream<Path> left = Files.list(registry)) {
                assertEquals(List.of(), left.toList(), "names left of job slurm-4242-0");
            }
            try (Stream<Path> left = Files.list(tmp)) {
                assertEquals(List.of(), left.toList(), "files left by the ranks' runtimes");
            }
        } finally {
            ranks.forEach(Process::destroyForcibly);
        }
    }
}
