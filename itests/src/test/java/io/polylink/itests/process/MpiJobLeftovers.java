package io.polylink.itests.process;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What the jobs of one test could leave behind: rank processes (found by the job directory their
 * environment names), files in the test's tmp directory, and shm directories in /dev/shm.
 */
final class MpiJobLeftovers {

    private static final Path DEV_SHM = Path.of("/dev/shm");

    private final Path tmp;
    private final Set<String> shmBefore;

    /** Notes what /dev/shm holds before the test's jobs run. */
    MpiJobLeftovers(Path work) throws IOException {
        this.tmp = MpirunProcess.tmp(work);
        this.shmBefore = shmDirectories();
    }

    /** @return the processes of ranks whose job directory is under the test's tmp directory */
    List<Long> ranks() {
        String marker = "POLYLINK_MPI_STORAGE=" + tmp;
        return ProcessHandle.allProcesses().filter(p -> environment(p).contains(marker)).map(ProcessHandle::pid)
            .toList();
    }

    private static String environment(ProcessHandle p) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(p.pid()), "environ")),
                StandardCharsets.UTF_8);
        } catch (IOException | SecurityException goneOrNotOurs) {
            return "";
        }
    }

    /** Asserts that no rank runs, the tmp directory is empty and /dev/shm has no new job directory. */
    void assertNone(String output) throws IOException {
        assertEquals(List.of(), ranks(), "rank processes left:\n" + output);
        try (Stream<Path> left = Files.list(tmp)) {
            assertEquals(List.of(), left.map(Path::toString).toList(), "files left in the job's tmp directory:\n" + output);
        }
        Set<String> now = shmDirectories();
        now.removeAll(shmBefore);
        assertEquals(Set.of(), now, "shm directories left in /dev/shm:\n" + output);
    }

    private static Set<String> shmDirectories() throws IOException {
        if (!Files.isDirectory(DEV_SHM)) {
            return new java.util.HashSet<>();
        }
        try (Stream<Path> all = Files.list(DEV_SHM)) {
            return all.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("polylink-mpirun-"))
                .collect(Collectors.toSet());
        }
    }
}
