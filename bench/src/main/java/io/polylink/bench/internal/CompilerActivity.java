package io.polylink.bench.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The CPU time the JIT compiler threads of some processes on this host have used, from Linux's
 * {@code /proc}: while it grows, a process is still compiling the code being measured, and on two
 * cores its compiler takes much of one from the threads that run that code.
 */
public final class CompilerActivity {

    private static final Path PROC = Path.of("/proc");

    private final long[] pids;

    private CompilerActivity(long[] pids) {
        this.pids = pids;
    }

    public static CompilerActivity of(long... pids) {
        return new CompilerActivity(pids.clone());
    }

    /**
     * @return clock ticks used by the compiler threads of the processes still running; always 0
     *     where there is no {@code /proc}, so a warm-up there is bounded by time alone
     */
    public long ticks() {
        long ticks = 0;
        for (long pid : pids) {
            try (Stream<Path> tasks = Files.list(PROC.resolve(pid + "/task"))) {
                for (Path task : (Iterable<Path>) tasks::iterator) {
                    ticks += compilerTicks(task);
                }
            } catch (NoSuchFileException e) {
                // that process ended
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + PROC.resolve(pid + "/task"), e);
            }
        }
        return ticks;
    }

    /** @return user plus system ticks of a compiler thread, 0 for any other or one that ended */
    private static long compilerTicks(Path task) throws IOException {
        try {
            String name = Files.readString(task.resolve("comm")).strip();
            if (!name.startsWith("C1 Compiler") && !name.startsWith("C2 Compiler")) {
                return 0;
            }
            return cpuTicks(Files.readString(task.resolve("stat")));
        } catch (IOException e) {
            // The thread ended between the listing and the read: the file is gone, or reading it
            // fails with ESRCH ("No such process"), as HotSpot ends compiler threads it no longer
            // needs. Its ticks leave the sum, which the caller sees as compiler activity.
            return 0;
        }
    }

    /** @return fields 14 and 15 (utime, stime) of a {@code stat} line, whose name may hold spaces */
    static long cpuTicks(String stat) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }
}
