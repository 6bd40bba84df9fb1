package io.polylink.mpi.internal.boot;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.p2p.Limits;
import io.polylink.mpi.internal.request.Idle;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A rank's launch settings, from the variables a launcher sets: {@code polylink mpirun}'s
 * ({@value #JOB}, {@value #RANK}, {@value #SIZE}), or Slurm's ({@value #SLURM_JOB_ID},
 * {@value #SLURM_PROCID}, {@value #SLURM_NTASKS}) where mpirun's are not set. Without either the
 * rank runs alone (a singleton, as {@code java Hello} starts it).
 *
 * @param job the job's id: letters, digits, '_' and '-'
 * @param rank this rank, 0 to {@code size - 1}
 * @param size the number of ranks
 * @param registry the directory registry where the ranks find each other; {@code null} when they
 *     meet elsewhere, or for a singleton
 * @param zookeeper the ZooKeeper ensemble where the ranks find each other ({@code host:port,...},
 *     perhaps with a chroot path), or {@code null}
 * @param mpirun the {@code polylink mpirun} this rank reports to, or {@code null} for none
 * @param host the name the launcher gave this rank's host ({@value #HOST}), by default this machine's
 *     name: ranks of one host share memory, and collectives go through one leader per host
 * @param wireupTimeout how long a rank waits for the others to appear in the registry
 * @param finalizeTimeout how long {@code MPI.Finalize} waits for the last goodbyes
 * @param livenessPeriod how often a waiting rank makes sure the ranks it waits for still run
 * @param abortRecord where the rank that aborts the job says so, for the launcher; {@code null} for
 *     nowhere
 * @param explain whether the rank prints how it reaches every other once it started
 * @param limits the engine's parameters
 */
public record LaunchSettings(String job, int rank, int size, Path registry, String zookeeper, MpirunContact mpirun,
                             String host, Duration wireupTimeout, Duration finalizeTimeout, Duration livenessPeriod,
                             Path abortRecord, boolean explain, Limits limits) {

    public static final String JOB = "POLYLINK_MPI_JOB";
    public static final String RANK = "POLYLINK_MPI_RANK";
    public static final String SIZE = "POLYLINK_MPI_SIZE";
    public static final String REGISTRY = "POLYLINK_MPI_REGISTRY";
    public static final String MPIRUN = "POLYLINK_MPI_MPIRUN";
    public static final String MPIRUN_KEY = "POLYLINK_MPI_MPIRUN_KEY";
    public static final String HOST = "POLYLINK_MPI_HOST";
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
    /** The shm method's settings for the rank, {@code key=value} pairs separated by commas. */
    public static final String SHM_SETTINGS = "POLYLINK_MPI_SHM_SETTINGS";
    /** The tcp method's settings for the rank, {@code key=value} pairs separated by commas. */
    public static final String TCP_SETTINGS = "POLYLINK_MPI_TCP_SETTINGS";
    public static final String SLURM_JOB_ID = "SLURM_JOB_ID";
    public static final String SLURM_STEP_ID = "SLURM_STEP_ID";
    public static final String SLURM_PROCID = "SLURM_PROCID";
    public static final String SLURM_NTASKS = "SLURM_NTASKS";

    /** How a registry variable names a ZooKeeper ensemble rather than a directory. */
    public static final String ZOOKEEPER_SCHEME = "zookeeper://";

    private static final Pattern JOB_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    /** A setting's key: what the methods' configurations name their keys. */
    private static final Pattern SETTING_KEY = Pattern.compile("[a-z][A-Za-z0-9]{0,63}");
    private static final Pattern ENSEMBLE = Pattern.compile("[A-Za-z0-9.:\\[\\]_-]+(,[A-Za-z0-9.:\\[\\]_-]+)*(/[A-Za-z0-9._/-]*)?");

    /**
     * @return the settings {@code env} holds
     * @throws MpiError {@code ERR_ARG} naming the variable that is missing or wrong and what it must be
     */
    public static LaunchSettings from(Map<String, String> env) {
        Duration wireup = Duration.ofMillis(number(env, WIREUP_TIMEOUT_MS, 60_000, 1, Long.MAX_VALUE));
        Duration finalize = Duration.ofMillis(number(env, FINALIZE_TIMEOUT_MS, 10_000, 1, Long.MAX_VALUE));
        Duration liveness = Duration.ofMillis(number(env, LIVENESS_MS, 250, 1, Long.MAX_VALUE));
        Path abortRecord = text(env, ABORT_FILE) == null ? null : Path.of(text(env, ABORT_FILE));
        boolean explain = flag(env, EXPLAIN);
        // A chunk given is the chunk over every method.
        Limits limits = new Limits(
            (int) number(env, EAGER_LIMIT, Limits.DEFAULT_EAGER_LIMIT, 0, Integer.MAX_VALUE),
            (int) number(env, CHUNK, Limits.DEFAULT_CHUNK, 8, Integer.MAX_VALUE),
            (int) number(env, CHUNK, Limits.DEFAULT_STREAM_CHUNK, 8, Integer.MAX_VALUE),
            number(env, UNEXPECTED_BYTES, Limits.DEFAULT_UNEXPECTED_BYTES, 0, Long.MAX_VALUE),
            (int) number(env, UNEXPECTED_MESSAGES, Limits.DEFAULT_UNEXPECTED_MESSAGES, 0, Integer.MAX_VALUE),
            new Idle((int) number(env, SPINS, Idle.DEFAULT.spins(), 0, Integer.MAX_VALUE),
                (int) number(env, YIELDS, Idle.DEFAULT.yields(), 0, Integer.MAX_VALUE)));
        String host = host(env);
        Identity who = identity(env);
        if (who == null) {
            return new LaunchSettings("singleton-" + ProcessHandle.current().pid(), 0, 1, null, null, null, host, wireup,
                finalize, liveness, abortRecord, explain, limits);
        }
        MpirunContact mpirun = MpirunContact.from(text(env, MPIRUN), text(env, MPIRUN_KEY));
        String where = text(env, REGISTRY);
        String zookeeper = where != null && where.startsWith(ZOOKEEPER_SCHEME) ? ensemble(where) : null;
        Path directory = where == null || zookeeper != null ? null : Path.of(where);
        if (who.size() > 1 && where == null && mpirun == null) {
            throw invalid(REGISTRY + " is not set: ranks of a job of " + who.size() + " find each other in a naming "
                + "registry they all share, a directory or " + ZOOKEEPER_SCHEME + "host:port");
        }
        return new LaunchSettings(who.job(), who.rank(), who.size(), directory, zookeeper, mpirun, host, wireup,
            finalize, liveness, abortRecord, explain, limits);
    }

    /** Job, rank and size, as a launcher gave them. */
    private record Identity(String job, int rank, int size) {}

    /** @return mpirun's job, rank and size, else Slurm's, else {@code null} for a singleton */
    private static Identity identity(Map<String, String> env) {
        List<String> present = present(env, JOB, RANK, SIZE);
        if (present.isEmpty()) {
            List<String> slurm = present(env, SLURM_JOB_ID, SLURM_PROCID, SLURM_NTASKS);
            if (slurm.size() < 3) {
                return null; // a shell inside an allocation (salloc) sets the job alone; srun sets all three
            }
            String step = text(env, SLURM_STEP_ID);
            String job = "slurm-" + text(env, SLURM_JOB_ID) + (step == null ? "" : "-" + step);
            return checked(job, SLURM_JOB_ID, SLURM_NTASKS, SLURM_PROCID, env);
        }
        if (present.size() < 3) {
            List<String> missing = new ArrayList<>(List.of(JOB, RANK, SIZE));
            missing.removeAll(present);
            throw invalid("the launcher set " + String.join(" and ", present) + " but not "
                + String.join(" and ", missing) + "; a rank needs all three, or none to run alone");
        }
        return checked(env.get(JOB), JOB, SIZE, RANK, env);
    }

    private static Identity checked(String job, String jobVariable, String sizeVariable, String rankVariable,
                                    Map<String, String> env) {
        if (!JOB_ID.matcher(job).matches()) {
            throw invalid(jobVariable + " gives the job id '" + job + "', which is not 1 to 64 letters, digits, '_' "
                + "or '-'");
        }
        int size = (int) number(env, sizeVariable, 0, 1, Integer.MAX_VALUE);
        int rank = (int) number(env, rankVariable, 0, 0, size - 1L);
        return new Identity(job, rank, size);
    }

    private static List<String> present(Map<String, String> env, String... names) {
        List<String> present = new ArrayList<>();
        for (String name : names) {
            if (text(env, name) != null) {
                present.add(name);
            }
        }
        return present;
    }

    private static String ensemble(String url) {
        String ensemble = url.substring(ZOOKEEPER_SCHEME.length());
        if (!ENSEMBLE.matcher(ensemble).matches()) {
            throw invalid(REGISTRY + "='" + url + "' names no ZooKeeper ensemble: write " + ZOOKEEPER_SCHEME
                + "host:port[,host:port...][/chroot]");
        }
        return ensemble;
    }

    /** @return what the ranks meet in, for messages */
    public String meetingPlace() {
        if (zookeeper != null) {
            return "ZooKeeper " + zookeeper;
        }
        if (registry != null) {
            return "the naming registry " + registry;
        }
        return mpirun != null ? "polylink mpirun at " + mpirun : "no registry";
    }

    /** @return where this rank runs, for messages: {@code " on host NAME"}, or empty when unknown */
    public String onHost() {
        return host == null ? "" : " on host " + host;
    }

    /** @return {@value #HOST}, or this machine's name */
    private static String host(Map<String, String> env) {
        String text = text(env, HOST);
        if (text != null) {
            if (text.length() > 255 || text.chars().anyMatch(Character::isISOControl)) {
                throw invalid(HOST + " names a host in 1 to 255 printable characters");
            }
            return text;
        }
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return "localhost";
        }
    }

    private static String text(Map<String, String> env, String name) {
        String v = env.get(name);
        return v == null || v.isBlank() ? null : v.trim();
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

    /**
     * @param variable {@link #SHM_SETTINGS} or {@link #TCP_SETTINGS}
     * @return the settings the variable lists as {@code key=value} pairs separated by commas, values
     *     as text (the method converts and checks them as it starts, naming the key it refuses);
     *     none if it is not set
     * @throws IllegalArgumentException naming the variable and the pair that is no setting
     */
    public static Map<String, Object> methodSettings(Map<String, String> env, String variable) {
        Map<String, Object> pairs = new HashMap<>();
        String list = env.getOrDefault(variable, "").trim();
        for (String pair : list.split(",")) {
            if (pair.isBlank()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = eq < 0 ? pair.trim() : pair.substring(0, eq).trim();
            if (eq < 0 || !SETTING_KEY.matcher(key).matches()) {
                throw new IllegalArgumentException(variable + "='" + list + "': '" + pair.trim() + "' is not a "
                    + "setting; write KEY=VALUE pairs separated by commas, KEY as the method's configuration names it "
                    + "(docs/configuration.md)");
            }
            pairs.put(key, pair.substring(eq + 1).trim());
        }
        return pairs;
    }
}
