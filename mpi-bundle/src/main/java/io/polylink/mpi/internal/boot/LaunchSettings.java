package io.polylink.mpi.internal.boot;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.p2p.Limits;
import io.polylink.mpi.internal.request.Idle;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A rank's launch settings, from the variables a launcher sets. Without {@value #JOB},
 * {@value #RANK} and {@value #SIZE} the rank runs alone (a singleton, as {@code java Hello}
 * starts it).
 *
 * @param job the job's id: letters, digits, '_' and '-'
 * @param rank this rank, 0 to {@code size - 1}
 * @param size the number of ranks
 * @param registry the naming registry's directory where the ranks find each other; {@code null}
 *     for a singleton
 * @param wireupTimeout how long a rank waits for the others to appear in the registry
 * @param finalizeTimeout how long {@code MPI.Finalize} waits for the last goodbyes
 * @param livenessPeriod how often a waiting rank makes sure the ranks it waits for still run
 * @param abortRecord where the rank that aborts the job says so, for the launcher; {@code null} for
 *     nowhere
 * @param explain whether the rank prints how it reaches every other once it started
 * @param limits the engine's parameters
 * @param host the host the rank runs on, as {@value #HOST} names it (by default this machine's
 *     name): ranks of one host share memory, and collectives go through one leader per host
 */
public record LaunchSettings(String job, int rank, int size, Path registry, Duration wireupTimeout,
                             Duration finalizeTimeout, Duration livenessPeriod, Path abortRecord, boolean explain,
                             Limits limits, String host) {

    public static final String JOB = "POLYLINK_MPI_JOB";
    public static final String RANK = "POLYLINK_MPI_RANK";
    public static final String SIZE = "POLYLINK_MPI_SIZE";
    public static final String REGISTRY = "POLYLINK_MPI_REGISTRY";
    public static final String WIREUP_TIMEOUT_MS = "POLYLINK_MPI_WIREUP_TIMEOUT_MS";
    public static final String FINALIZE_TIMEOUT_MS = "POLYLINK_MPI_FINALIZE_TIMEOUT_MS";
    public static final String LIVENESS_MS = "POLYLINK_MPI_LIVENESS_MS";
    public static final String ABORT_FILE = "POLYLINK_MPI_ABORT_FILE";
    public static final String EXPLAIN = "POLYLINK_MPI_EXPLAIN";
    public static final String EAGER_LIMIT = "POLYLINK_MPI_EAGER_LIMIT";
    public static final String CHUNK = "POLYLINK_MPI_CHUNK";
    public static final String UNEXPECTED_BYTES = "POLYLINK_MPI_UNEXPECTED_BYTES";
    public static final String UNEXPECTED_MESSAGES = "POLYLINK_MPI_UNEXPECTED_MESSAGES";
    public static final String SPINS = "POLYLINK_MPI_SPINS";
    public static final String YIELDS = "POLYLINK_MPI_YIELDS";
    public static final String HOST = "POLYLINK_MPI_HOST";

    private static final Pattern JOB_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    /**
     * @return the settings {@code env} holds
     * @throws MpiError {@code ERR_ARG} naming the variable that is missing or wrong and what it must be
     */
    public static LaunchSettings from(Map<String, String> env) {
        List<String> present = new ArrayList<>();
        for (String name : List.of(JOB, RANK, SIZE)) {
            String value = env.get(name);
            if (value != null && !value.isBlank()) {
                present.add(name);
            }
        }
        Duration wireup = Duration.ofMillis(number(env, WIREUP_TIMEOUT_MS, 60_000, 1, Long.MAX_VALUE));
        Duration finalize = Duration.ofMillis(number(env, FINALIZE_TIMEOUT_MS, 10_000, 1, Long.MAX_VALUE));
        Duration liveness = Duration.ofMillis(number(env, LIVENESS_MS, 250, 1, Long.MAX_VALUE));
        String abortFile = env.get(ABORT_FILE);
        Path abortRecord = abortFile == null || abortFile.isBlank() ? null : Path.of(abortFile);
        boolean explain = flag(env, EXPLAIN);
        Limits limits = new Limits(
            (int) number(env, EAGER_LIMIT, Limits.DEFAULT_EAGER_LIMIT, 0, Integer.MAX_VALUE),
            (int) number(env, CHUNK, Limits.DEFAULT_CHUNK, 8, Integer.MAX_VALUE),
            number(env, UNEXPECTED_BYTES, Limits.DEFAULT_UNEXPECTED_BYTES, 0, Long.MAX_VALUE),
            (int) number(env, UNEXPECTED_MESSAGES, Limits.DEFAULT_UNEXPECTED_MESSAGES, 0, Integer.MAX_VALUE),
            new Idle((int) number(env, SPINS, Idle.DEFAULT.spins(), 0, Integer.MAX_VALUE),
                (int) number(env, YIELDS, Idle.DEFAULT.yields(), 0, Integer.MAX_VALUE)));
        String host = host(env);
        if (present.isEmpty()) {
            return new LaunchSettings("singleton-" + ProcessHandle.current().pid(), 0, 1, null, wireup, finalize,
                liveness, abortRecord, explain, limits, host);
        }
        if (present.size() < 3) {
            List<String> missing = new ArrayList<>(List.of(JOB, RANK, SIZE));
            missing.removeAll(present);
            throw invalid("the launcher set " + String.join(" and ", present) + " but not "
                + String.join(" and ", missing) + "; a rank needs all three, or none to run alone");
        }
        String job = env.get(JOB);
        if (!JOB_ID.matcher(job).matches()) {
            throw invalid(JOB + "='" + job + "' is not a job id: 1 to 64 letters, digits, '_' or '-'");
        }
        int size = (int) number(env, SIZE, 0, 1, Integer.MAX_VALUE);
        int rank = (int) number(env, RANK, 0, 0, size - 1L);
        String dir = env.get(REGISTRY);
        if (size > 1 && (dir == null || dir.isBlank())) {
            throw invalid(REGISTRY + " is not set: ranks of a job of " + size
                + " find each other in a naming registry directory they all share");
        }
        return new LaunchSettings(job, rank, size, dir == null || dir.isBlank() ? null : Path.of(dir), wireup,
            finalize, liveness, abortRecord, explain, limits, host);
    }

    /** @return {@value #HOST}, or this machine's name */
    private static String host(Map<String, String> env) {
        String text = env.get(HOST);
        if (text != null && !text.isBlank()) {
            if (text.length() > 255 || text.chars().anyMatch(Character::isISOControl)) {
                throw invalid(HOST + " names a host in 1 to 255 printable characters");
            }
            return text.trim();
        }
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return "localhost";
        }
    }

    private static long number(Map<String, String> env, String name, long fallback, long min, long max) {
        String text = env.get(name);
        if (text == null || text.isBlank()) {
            if (min > fallback) {
                throw invalid(name + " is not set");
            }
            return fallback;
        }
        long value;
        try {
            value = Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw invalid(name + "='" + text + "' is not a number");
        }
        if (value < min || value > max) {
            throw invalid(name + "=" + value + " is out of range: " + min + " to " + max);
        }
        return value;
    }

    private static boolean flag(Map<String, String> env, String name) {
        String text = env.get(name);
        if (text == null || text.isBlank() || text.equalsIgnoreCase("false") || text.equals("0")) {
            return false;
        }
        if (text.equalsIgnoreCase("true") || text.equals("1")) {
            return true;
        }
        throw invalid(name + "='" + text + "' is neither true nor false");
    }

    private static MpiError invalid(String message) {
        return new MpiError(ErrorClass.ERR_ARG, "MPI.Init: " + message);
    }

    /** @return the name this rank publishes its startpoint under */
    public String name(int r) {
        return "mpi." + job + "." + r;
    }
}
