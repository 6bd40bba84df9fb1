package io.polylink.itests.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shm method's bundle is updated in one rank's framework while two ranks exchange numbered
 * messages over it: the links move to tcp and back, and every message arrives once, in order.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class MpiMethodUpdateIT {

    private static final Duration LIMIT = Duration.ofMinutes(2);

    @TempDir
    Path work;

    @Test
    void theShmBundleUpdatedInARanksFrameworkMidJobLosesNothing() throws Exception {
        Path programs = MpiPrograms.compile(work, "Numbered");
        Path stop = work.resolve("stop");
        try (MpiJobLeftovers leftovers = new MpiJobLeftovers(work);
             MpirunProcess run = MpirunProcess.mpirun(programs, "-np", "2", "-cp", ".", "Numbered", stop.toString())) {
            run.awaitMatch("^rank 0 reaches rank 1 by shm from message 0$", LIMIT);
            run.awaitMatch("^rank 1 reaches rank 0 by shm from message 0$", LIMIT);

            // The same jar as the installed one, dropped into rank 1's deploy directory: FileInstall updates
            // the installed bundle of that name and version (Bundle.update), which stops and starts shm.
            Path rank1 = rankStorage(MpirunProcess.tmp(work), 1);
            Path jar;
            try (Stream<Path> repository = Files.list(rank1.resolve("repository"))) {
                jar = repository.filter(p -> p.getFileName().toString().startsWith("polylink-method-shm-")).findFirst()
                    .orElseThrow(() -> new AssertionError("no shm bundle in " + rank1.resolve("repository")));
            }
            Path part = rank1.resolve("shm.jar.part");
            Files.copy(jar, part);
            Files.move(part, rank1.resolve("deploy/shm.jar"), StandardCopyOption.ATOMIC_MOVE);

            run.awaitMatch("^A bundle with the same symbolic name \\(io.polylink.method.shm\\) and version .* is already "
                + "installed\\.  Updating this bundle instead\\.$", LIMIT);
            Matcher moved = run.awaitMatch("^rank (\\d) reaches rank \\d by tcp from message (\\d+)$", LIMIT);
            // back on shm: a later message than the first, which went by shm before the update
            run.awaitMatch("^rank " + moved.group(1) + " reaches rank \\d by shm from message [1-9]\\d*$", LIMIT);

            Files.createFile(stop);
            assertEquals(0, run.awaitExit(LIMIT), run.output());
            String out = run.output();
            long[] received = new long[2];
            for (int r = 0; r < 2; r++) {
                Matcher m = run.awaitMatch("^rank " + r + " received (\\d+) numbered messages, each once and in order$",
                    LIMIT);
                received[r] = Long.parseLong(m.group(1));
            }
            assertEquals(received[0], received[1], out);
            assertTrue(received[0] > Long.parseLong(moved.group(2)), "messages went after the links moved:\n" + out);
            leftovers.assertNone(out);
        }
    }

    /** Waits until the running job's rank {@code rank} has its runtime's deploy directory. */
    private static Path rankStorage(Path tmp, int rank) throws Exception {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (true) {
            try (Stream<Path> jobs = Files.list(tmp)) {
                List<Path> found = jobs.map(j -> j.resolve("rank-" + rank)).filter(s -> Files.isDirectory(s.resolve("deploy")))
                    .toList();
                if (found.size() == 1) {
                    return found.get(0);
                }
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("rank " + rank + " has no deploy directory under " + tmp);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20)); // a directory has no change event to wait on
        }
    }
}
