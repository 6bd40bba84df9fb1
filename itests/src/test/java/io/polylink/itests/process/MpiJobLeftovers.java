package io.polylink.itests.process;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * What the jobs of one test could leave behind: rank processes (found by the job directory their
 * environment names), files in the test's tmp directory, and shm directories in /dev/shm. Only the
 * test's own jobs count: their ids are the names of the job directories mpirun makes in the test's
 * tmp directory, seen as they appear, since other jobs may run on the machine meanwhile.
 */
final class MpiJobLeftovers implements AutoCloseable {

    private static final Path DEV_SHM = Path.of("/dev/shm");
    private static final String JOB_DIRECTORY = "polylink-mpirun-";

    private final Path tmp;
    private final WatchService jobs;

    /** Starts noting the jobs that make their directory in the test's tmp directory. */
    MpiJobLeftovers(Path work) throws IOException {
        this.tmp = MpirunProcess.tmp(work);
        this.jobs = tmp.getFileSystem().newWatchService();
        tmp.register(jobs, StandardWatchEventKinds.ENTRY_CREATE);
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

    /** Asserts that no rank runs, the tmp directory is empty and /dev/shm has no directory of the test's jobs. */
    void assertNone(String output) throws IOException {
        assertEquals(List.of(), ranks(), "rank processes left:\n" + output);
        try (Stream<Path> left = Files.list(tmp)) {
            assertEquals(List.of(), left.map(Path::toString).toList(), "files left in the job's tmp directory:\n" + output);
        }
        Set<String> left = new TreeSet<>();
        for (String job : jobDirectories()) {
            if (Files.exists(DEV_SHM.resolve(job), LinkOption.NOFOLLOW_LINKS)) {
                left.add(job);
            }
        }
        assertEquals(Set.of(), left, "shm directories left in /dev/shm:\n" + output);
    }

    /** @return the names of the job directories made in the tmp directory since the start */
    private Set<String> jobDirectories() {
        Set<String> names = new TreeSet<>();
        for (WatchKey key = jobs.poll(); key != null; key = jobs.poll()) {
            for (WatchEvent<?> event : key.pollEvents()) {
                if (event.context() instanceof Path name && name.toString().startsWith(JOB_DIRECTORY)) {
                    names.add(name.toString());
                }
            }
            key.reset();
        }
        return names;
    }

    @Override
    public void close() throws IOException {
        jobs.close();
    }
}
