package io.polylink.launcher.mpirun;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The command line of {@code polylink mpirun}; see {@link #HELP}.
 *
 * @param ranks how many ranks to start
 * @param classPath where the program's classes are; {@code null} for the default
 * @param jar the program's jar, or {@code null} when a class is named
 * @param mainClass the class to run, or {@code null} when a jar is named
 * @param args the program's arguments
 * @param output how the ranks' output is shown
 * @param explain whether each rank says how it reaches every other
 * @param methods the methods each rank starts, or {@code null} for the default
 * @param transforms the transforms each rank starts, or {@code null} for none
 * @param registry the directory registry to meet in, or {@code null} for a fresh one or ZooKeeper
 * @param zookeeper the ZooKeeper ensemble to meet in ({@code host:port,...[/chroot]}), or {@code null}
 * @param tmpdir where the job's files go, or {@code null} for {@code java.io.tmpdir}
 * @param across how to start ranks on other hosts, or {@code null} to start them all on this one
 * @param exports variables the ranks get, {@code NAME=VALUE}, from {@code -x}
 * @param models the link models the ranks get, or {@code null} for the installation's
 */
record MpirunOptions(int ranks, String classPath, Path jar, String mainClass, List<String> args, Output output,
                     boolean explain, String methods, String transforms, Path registry, String zookeeper, Path tmpdir,
                     Across across, List<String> exports, Path models) {

    /** The default launcher template: Open MPI's rsh launcher runs ssh the same way. */
    static final String SSH = "ssh -o BatchMode=yes {host}";

    /**
     * Ranks on other hosts.
     *
     * @param hosts the hosts and their slots
     * @param launcher the command that runs a command on a host, {@code {host}} standing for its name
     * @param prefix where the distribution is on the other hosts, or {@code null} for where it is here
     * @param rendezvous the address mpirun listens on for its ranks, or {@code null} for every address
     * @param workingDirectory the ranks' working directory, or {@code null} for mpirun's
     */
    record Across(Hosts hosts, String launcher, String prefix, String rendezvous, String workingDirectory) {}

    /** The most ranks one host runs. */
    static final int MAX_RANKS = 1024;

    /** How the ranks' output reaches mpirun's. */
    enum Output {
        /** Each rank's lines as they come. */
        PLAIN,
        /** Each line starts with {@code [RANK] }. */
        RANK_PREFIX
    }

    static final String HELP = """
        usage: polylink mpirun -np N [options] (CLASS | -jar JAR) [ARGS...]

        Runs an MPI program written against Open MPI's Java bindings (package mpi) as a job of N
        ranks on this host, each rank a JVM of its own with its own Polylink runtime. The ranks
        find each other in a naming registry under a job id of their own, and reach each other by
        shm, or by tcp on 127.0.0.1. Compile programs against lib/mpi/polylink-mpi.jar:

          javac -cp "$POLYLINK_HOME/lib/mpi/polylink-mpi.jar" Ring.java
          polylink mpirun -np 4 -cp . Ring

          -np N, -n N        the number of ranks, 1 to %d (required)
          -cp PATH, -classpath PATH, --class-path PATH
                             where the program's classes are, as java takes it (default: $CLASSPATH,
                             else the current directory); lib/mpi/ comes first
          -jar JAR           run the Main-Class of JAR, with JAR (and its Class-Path) on the class path
          --output MODE      plain: each rank's lines as they come (the default); rank-prefix: each
                             line of a rank starts with [RANK]
          --explain          each rank prints, once MPI.Init is done, which method stack it reaches
                             every other rank by, and why
          --methods LIST     the methods each rank's runtime starts (default tcp,shm)
          --transforms LIST  the transforms each rank's runtime starts, for stacks such as lz4/tcp
                             pinned by a communicator's polylink.stack hint (default none)
          --registry DIR|zookeeper://HOST:PORT[,HOST:PORT...][/CHROOT]
                             the naming registry the ranks meet in: a directory (on several hosts, one
                             they all share), or a ZooKeeper ensemble (default: a fresh directory in the
                             job's directory; on several hosts, mpirun itself); the job's names are
                             withdrawn from it at the end
          --tmpdir DIR       where the job's directory goes (default java.io.tmpdir): the registry,
                             each rank's runtime; the shm segments go to /dev/shm/polylink-mpirun-JOB
          -x NAME[=VALUE]    the ranks get variable NAME, with VALUE or mpirun's own value (repeatable)
          --models FILE      the link models the ranks get, which shape broadcasts across sites (default
                             conf/plogp.models of this installation, if there is one; see docs/plogp.md)
          --help             this text

        On several hosts (as Open MPI's mpirun; see docs/across-hosts.md):
          --host LIST, -H LIST
                             the hosts, each NAME or NAME:SLOTS, comma-separated; ranks fill each
                             host's slots in order; -np defaults to all slots
          --hostfile FILE    the hosts, one per line: NAME [slots=N] [site=NAME]; # comments
          --launcher TEMPLATE
                             the command that runs a rank on a host, {host} standing for its name
                             (default '%s'); e.g. 'ip netns exec {host}'
          --prefix DIR       where the distribution is on the other hosts (default: where it is here)
          --wdir DIR         the ranks' working directory (default: mpirun's, which must exist there)
          --rendezvous ADDR  the address mpirun listens on for its ranks (default: every address);
                             each host must reach mpirun there by tcp

        Everything after CLASS or -jar JAR goes to the program unchanged. POLYLINK_MPI_JAVA_OPTS
        holds JVM options for the ranks (e.g. -Xmx2g); the ranks get the rest of the environment as
        it is, with POLYLINK_MPI_JOB, _RANK, _SIZE and _REGISTRY set (see docs/mpi.md).

        Exit status: 0 if every rank exited with 0; else that of the first rank that failed, which
        is named (after a failure the other ranks have %d s to end by themselves, then they are
        stopped; a host that cannot start its ranks or goes silent fails the job at once, named);
        2 for a wrong command line. Ctrl-C stops every rank. Whatever way the job ends, every process
        and file it made is gone, on every host that is still there.""".formatted(MAX_RANKS, SSH,
        Mpirun.GRACE_SECONDS);

    private static final Pattern NAMES = Pattern.compile("[a-z0-9][a-z0-9-]*(,[a-z0-9][a-z0-9-]*)*");

    /**
     * @return the options, or {@code null} if {@code --help} was asked for
     * @throws IllegalArgumentException naming every option that is wrong, or what is missing
     */
    static MpirunOptions parse(String[] argv) {
        Integer ranks = null;
        String classPath = null;
        Path jar = null;
        String mainClass = null;
        Output output = Output.PLAIN;
        boolean explain = false;
        String methods = null;
        String transforms = null;
        String registry = null;
        Path tmpdir = null;
        String hostList = null;
        Path hostfile = null;
        String launcher = null;
        String prefix = null;
        String rendezvous = null;
        String wdir = null;
        List<String> exports = new ArrayList<>();
        Path models = null;
        List<String> unknown = new ArrayList<>();
        int i = 0;
        for (; i < argv.length && jar == null && mainClass == null; i++) {
            String a = argv[i];
            switch (a) {
                case "--help", "-h" -> {
                    return null;
                }
                case "-np", "-n", "--np" -> ranks = ranks(value(argv, ++i, a));
                case "-cp", "-classpath", "--class-path" -> classPath = value(argv, ++i, a);
                case "-jar" -> jar = Path.of(value(argv, ++i, a));
                case "--output" -> output = output(value(argv, ++i, a));
                case "--explain" -> explain = true;
                case "--methods" -> methods = names(a, value(argv, ++i, a));
                case "--transforms" -> transforms = names(a, value(argv, ++i, a));
                case "--registry" -> registry = value(argv, ++i, a);
                case "--tmpdir" -> tmpdir = Path.of(value(argv, ++i, a));
                case "--host", "-H", "-host" -> hostList = value(argv, ++i, a);
                case "--hostfile", "-hostfile", "--machinefile", "-machinefile" -> hostfile = Path.of(value(argv, ++i, a));
                case "--launcher" -> launcher = value(argv, ++i, a);
                case "--prefix" -> prefix = value(argv, ++i, a);
                case "--rendezvous" -> rendezvous = value(argv, ++i, a);
                case "--wdir", "-wdir", "-wd" -> wdir = value(argv, ++i, a);
                case "-x" -> exports.add(export(value(argv, ++i, a)));
                case "--models" -> models = Path.of(value(argv, ++i, a));
                default -> {
                    if (a.startsWith("-")) {
                        unknown.add(a);
                    } else {
                        mainClass = a;
                    }
                }
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown option" + (unknown.size() == 1 ? " " : "s ") + "'"
                + String.join("', '", unknown) + "'");
        }
        if (hostList != null && hostfile != null) {
            throw new IllegalArgumentException("--host and --hostfile do not go together: name the hosts once");
        }
        Hosts hosts = hostList != null ? Hosts.parse(hostList) : hostfile != null ? Hosts.read(hostfile) : null;
        if (hosts == null && (launcher != null || prefix != null || rendezvous != null || wdir != null)) {
            throw new IllegalArgumentException("--launcher, --prefix, --rendezvous and --wdir are for ranks on other "
                + "hosts: name them with --host or --hostfile");
        }
        if (ranks == null && hosts != null) {
            ranks = Math.min(hosts.slots(), MAX_RANKS);
        }
        if (ranks == null) {
            throw new IllegalArgumentException("how many ranks? give -np N");
        }
        Across across = null;
        if (hosts != null) {
            hosts.place(ranks);
            across = new Across(hosts, launcher != null ? Launcher.check(launcher) : SSH,
                prefix == null ? null : safeWord("--prefix", prefix), rendezvous, wdir);
        }
        if (jar == null && mainClass == null) {
            throw new IllegalArgumentException("which program? name its main class, or -jar JAR");
        }
        if (jar != null && classPath != null) {
            throw new IllegalArgumentException("-jar and -cp do not go together: the jar's manifest (Class-Path) "
                + "says what else it needs");
        }
        List<String> args = List.copyOf(Arrays.asList(argv).subList(i, argv.length));
        boolean zk = registry != null && registry.startsWith(ZOOKEEPER);
        if (zk && !ENSEMBLE.matcher(registry.substring(ZOOKEEPER.length())).matches()) {
            throw new IllegalArgumentException("--registry " + registry + " names no ZooKeeper ensemble: write "
                + ZOOKEEPER + "HOST:PORT[,HOST:PORT...][/CHROOT]");
        }
        return new MpirunOptions(ranks, classPath, jar, mainClass, args, output, explain, methods, transforms,
            registry == null || zk ? null : Path.of(registry), zk ? registry.substring(ZOOKEEPER.length()) : null,
            tmpdir, across, List.copyOf(exports), models);
    }

    private static final String ZOOKEEPER = "zookeeper://";
    private static final Pattern ENSEMBLE = Pattern.compile("[A-Za-z0-9.:\\[\\]_-]+(,[A-Za-z0-9.:\\[\\]_-]+)*(/[A-Za-z0-9._/-]*)?");
    private static final Pattern VARIABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    /** Characters a POSIX shell passes unchanged, so a word of them means the same run directly or by a remote shell. */
    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");

    /** @return {@code NAME=VALUE}, the value mpirun's own for {@code -x NAME} */
    private static String export(String text) {
        int eq = text.indexOf('=');
        String name = eq < 0 ? text : text.substring(0, eq);
        if (!VARIABLE.matcher(name).matches()) {
            throw new IllegalArgumentException("-x takes NAME or NAME=VALUE, where NAME is a variable's name; not '"
                + text + "'");
        }
        if (eq >= 0) {
            return text;
        }
        String value = System.getenv(name);
        if (value == null) {
            throw new IllegalArgumentException("-x " + name + ": mpirun's environment has no " + name
                + "; give its value as -x " + name + "=VALUE");
        }
        return name + "=" + value;
    }

    /** @return {@code text}, if a remote shell takes it as one word unchanged */
    static String safeWord(String option, String text) {
        if (!SAFE.matcher(text).matches()) {
            throw new IllegalArgumentException(option + " '" + text + "' must be letters, digits and _@%+=:,./- "
                + "alone, to reach the other hosts unchanged through the launcher");
        }
        return text;
    }

    private static String value(String[] argv, int i, String option) {
        if (i >= argv.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return argv[i];
    }

    private static int ranks(String text) {
        try {
            int n = Integer.parseInt(text);
            if (n >= 1 && n <= MAX_RANKS) {
                return n;
            }
        } catch (NumberFormatException notANumber) {
            // said below
        }
        throw new IllegalArgumentException("-np takes a number of ranks from 1 to " + MAX_RANKS + ", not '" + text + "'");
    }

    private static Output output(String text) {
        return switch (text) {
            case "plain" -> Output.PLAIN;
            case "rank-prefix" -> Output.RANK_PREFIX;
            default -> throw new IllegalArgumentException("--output takes plain or rank-prefix, not '" + text + "'");
        };
    }

    private static String names(String option, String text) {
        if (!NAMES.matcher(text).matches()) {
            throw new IllegalArgumentException(option + " takes names separated by commas, such as tcp,shm; not '"
                + text + "'");
        }
        return text;
    }
}
