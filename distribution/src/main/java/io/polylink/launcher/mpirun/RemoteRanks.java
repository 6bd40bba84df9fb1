package io.polylink.launcher.mpirun;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * How mpirun runs a command on another host: the launcher template, then
 * {@code PREFIX/bin/polylink mpirun-rank} (or {@code mpirun-clean}); words a remote shell passes
 * unchanged, so that ssh (which hands them to a shell) and {@code ip netns exec} (which runs them)
 * run the same. What the command needs besides (its directory, variables and arguments, which may
 * hold anything) goes on its standard input, as one line: base64 of NUL-separated words (see
 * docs/across-hosts.md#how-a-rank-starts-on-another-host).
 */
final class RemoteRanks {

    /** How long cleaning up one host may take. */
    private static final long CLEAN_SECONDS = 10;

    private final MpirunOptions.Across across;
    private final String prefix;

    /** @param home where the distribution is on this host: the default prefix */
    RemoteRanks(MpirunOptions.Across across, Path home) {
        this.across = across;
        this.prefix = across.prefix() != null ? across.prefix()
            : MpirunOptions.safeWord("the distribution's path (give --prefix)", home.toAbsolutePath().toString());
    }

    /** @return where the distribution is on the other hosts */
    String prefix() {
        return prefix;
    }

    /** @return the command that starts a rank on {@code host}; it reads {@link #line} first */
    List<String> command(String host) {
        return Launcher.command(across.launcher(), host, List.of(prefix + "/bin/polylink", "mpirun-rank"));
    }

    /**
     * @param directory the working directory
     * @param environment the rank's variables
     * @param argv the rank's command: {@code java} first, which the host's own java replaces
     * @return the line {@code mpirun-rank} reads
     */
    static String line(String directory, Map<String, String> environment, List<String> argv) {
        ByteArrayOutputStream words = new ByteArrayOutputStream();
        List<String> all = new ArrayList<>();
        all.add(directory);
        all.add(Integer.toString(environment.size()));
        environment.forEach((k, v) -> all.add(k + "=" + v));
        all.addAll(argv);
        for (String w : all) {
            if (w.indexOf('\0') >= 0) {
                throw new IllegalArgumentException("'" + w.replace('\0', '?') + "' holds a NUL character, which no "
                    + "command line can");
            }
            words.writeBytes(w.getBytes(StandardCharsets.UTF_8));
            words.write(0);
        }
        return Base64.getEncoder().encodeToString(words.toByteArray());
    }

    /**
     * Removes what the job left on each host: its directory and its shm directory, where ranks
     * that were killed left them. Hosts are cleaned at once, each within {@value #CLEAN_SECONDS} s.
     *
     * @return a line per host that could not be cleaned, saying why
     */
    List<String> clean(List<String> hosts, Path jobDirectory, Path shmDirectory) throws InterruptedException {
        List<Process> cleaners = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        for (String host : hosts) {
            try {
                cleaners.add(new ProcessBuilder(Launcher.command(across.launcher(), host, List.of(prefix
                    + "/bin/polylink", "mpirun-clean", jobDirectory.toString(), shmDirectory.toString())))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start());
            } catch (IOException e) {
                cleaners.add(null);
                failed.add("host " + host + ": " + e.getMessage());
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CLEAN_SECONDS);
        for (int i = 0; i < cleaners.size(); i++) {
            Process p = cleaners.get(i);
            if (p == null) {
                continue;
            }
            if (!p.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                p.destroyForcibly().waitFor();
                failed.add("host " + hosts.get(i) + ": no answer within " + CLEAN_SECONDS + " s");
            } else if (p.exitValue() != 0) {
                failed.add("host " + hosts.get(i) + ": the launcher exited with code " + p.exitValue());
            }
        }
        return failed;
    }
}
