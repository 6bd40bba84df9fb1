package io.polylink.mpi.internal.boot;

import io.polylink.Context;
import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.comm.Communicator;
import io.polylink.mpi.internal.comm.ContextIds;
import io.polylink.mpi.internal.comm.World;
import io.polylink.mpi.internal.p2p.BufferedSends;
import io.polylink.mpi.internal.p2p.ControlListener;
import io.polylink.mpi.internal.p2p.Limits;
import io.polylink.mpi.internal.p2p.Liveness;
import io.polylink.mpi.internal.p2p.PointToPoint;
import io.polylink.mpi.internal.p2p.Transport;
import io.polylink.mpi.internal.shared.OwnSegments;
import io.polylink.mpi.internal.shared.PeerSegments;
import io.polylink.mpi.internal.shared.SegmentDirectory;
import io.polylink.mpi.internal.wire.Header;
import io.polylink.plogp.ModelDatabase;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An initialized rank: its host, context, messaging and predefined communicators, from
 * {@code MPI.Init} to {@code MPI.Finalize}, and the abort that may end it sooner. Thread-safe.
 */
public final class Session implements ControlListener {

    /** The link models of the job (docs/plogp.md), as {@code polylink mpirun} gives every rank. */
    public static final String MODELS = "POLYLINK_MPI_PLOGP_MODELS";

    /** An abort record: "RANK CODE REASON", one whole line. */
    private static final Pattern RECORD = Pattern.compile("(\\d+) (-?\\d+) [^\\n]*\n");

    /** Who aborted the job, and with what code. */
    public record Abort(int rank, int code) {}

    private final RankHost host;
    private final LaunchSettings settings;
    private final Farewells farewells;
    private final Transport transport;
    private final PointToPoint p2p;
    private final World world;
    private final Communicator commWorld;
    private final Communicator commSelf;
    private final BufferedSends buffered = new BufferedSends();
    private final Liveness liveness;
    private final Thread main = Thread.currentThread();
    private final MainWatch mainWatch = new MainWatch(main, this::mainEnded);
    private final PrintStream err = System.err;
    private final Map<Integer, MpiError> lost = new ConcurrentHashMap<>();
    /** Set once {@code MPI.Finalize} begins. */
    private volatile boolean finalizing;
    /** Set as the JVM ends (SIGTERM, Ctrl-C, System.exit): failures its ending causes are not the job's. */
    private volatile boolean ending;
    private final Thread endingHook = new Thread(this::ending, "polylink-mpi-ending");
    /** This rank's shared direct buffers, or {@code null} where the host's ranks cannot share memory. */
    private final OwnSegments shared;
    private volatile Abort abort;
    /** The link to the mpirun that started this rank on another host, or {@code null}. */
    private volatile MpirunLink mpirun;

    /**
     * Whether this host runs more of the job's ranks than it has cores, known once the ranks met: a
     * waiting thread then yields from its first look, unless {@value LaunchSettings#SPINS} says how
     * long to spin.
     */
    private volatile boolean crowded;

    private Session(RankHost host, LaunchSettings settings, Context context, boolean spinsGiven, ModelDatabase models) {
        this.host = host;
        this.settings = settings;
        this.farewells = new Farewells(settings.size(), settings.rank());
        // A waiting thread receives itself: its answer needs no hand-off from a method's thread.
        Limits received = settings.limits().fitting(context.maxMessageSize()).receivingWith(context::progress,
            context::handBackReceiving);
        Limits limits = spinsGiven ? received : received.yieldingWhen(() -> crowded);
        this.transport = new Transport(context, settings.rank(), limits);
        SegmentDirectory segments = segmentDirectory(host.environment());
        this.shared = segments == null ? null : new OwnSegments(segments, limits.eagerLimit() + 1);
        this.p2p = new PointToPoint(transport, limits, this, shared, segments == null ? null : new PeerSegments(segments));
        this.world = new World(p2p, settings.rank(), settings.size(), settings.explain() ? err : null, models);
        this.commWorld = Communicator.world(world);
        this.commSelf = Communicator.self(world);
        this.liveness = new Liveness(transport, settings.livenessPeriod(), () -> finalizing || p2p.waiting(),
            farewells::finished);
    }

    /**
     * @return the job's link models, from {@value #MODELS}; none without it
     * @throws MpiError {@code ERR_ARG} naming the line of the models that is wrong
     */
    static ModelDatabase models(Map<String, String> env) {
        String text = env.get(MODELS);
        if (text == null || text.isBlank()) {
            return ModelDatabase.EMPTY;
        }
        try {
            return ModelDatabase.parse(text);
        } catch (IllegalArgumentException e) {
            throw new MpiError(ErrorClass.ERR_ARG, "MPI.Init: " + MODELS + " (the job's link models, which polylink "
                + "mpirun takes from conf/plogp.models or --models), " + e.getMessage() + " (see docs/plogp.md)");
        }
    }

    /**
     * @return where this host's ranks keep their shared buffers ({@value EmbeddedRankHost#SHM_DIRECTORY}, else
     *     {@link SegmentDirectory#defaultPath()}); {@code null}, with a warning why, if they cannot
     */
    private static SegmentDirectory segmentDirectory(Map<String, String> env) {
        Path path = EmbeddedRankHost.value(env, EmbeddedRankHost.SHM_DIRECTORY).map(Path::of)
            .orElseGet(SegmentDirectory::defaultPath);
        if (path == null) {
            return null;
        }
        try {
            return SegmentDirectory.open(path);
        } catch (IOException | UnsupportedOperationException e) {
            System.getLogger("io.polylink.mpi").log(System.Logger.Level.WARNING, "direct buffers are not shared "
                + "with the host's other ranks, so their large messages take two copies: " + e.getMessage());
            return null;
        }
    }

    /**
     * Starts this rank: finds its host, reads the launch settings, opens its context and finds the
     * other ranks.
     *
     * @throws MpiError naming what failed: the settings, the context, or the ranks that did not appear
     */
    public static Session start() {
        RankHost host = RankHosts.find();
        LaunchSettings settings = LaunchSettings.from(host.environment());
        ModelDatabase models = models(host.environment());
        Context context;
        try {
            context = host.open(settings);
        } catch (Exception e) {
            host.close();
            throw new MpiError(ErrorClass.ERR_OTHER, "MPI.Init: rank " + settings.rank() + " of job " + settings.job()
                + " could not open its Polylink context: " + e.getMessage(), e);
        }
        Session s = null;
        try {
            s = new Session(host, settings, context, host.environment().get(LaunchSettings.SPINS) != null, models);
            if (settings.mpirun() != null) {
                s.mpirun = MpirunLink.open(settings, s.transport.startpoint().toText());
                s.mpirun.listen(s.new MpirunListener());
            }
            s.transport.peers(Wireup.connect(context, settings, s.transport.startpoint(), s.mpirun));
            if (settings.size() > 1) {
                s.world.meet(settings.host(), EmbeddedRankHost.value(host.environment(), EmbeddedRankHost.SITE).orElse(null),
                    Runtime.getRuntime().availableProcessors());
                s.crowded = s.world.crowded()[settings.rank()];
            }
            Runtime.getRuntime().addShutdownHook(s.endingHook);
            s.liveness.start();
            s.mainWatch.start();
            if (settings.explain()) {
                s.explain();
            }
            return s;
        } catch (RuntimeException e) {
            if (s != null && s.mpirun != null) {
                s.mpirun.close();
            }
            Wireup.withdraw(context, settings);
            host.close();
            throw e;
        }
    }

    /** What mpirun tells a rank it started on another host. */
    private final class MpirunListener implements MpirunLink.Listener {
        /** As SIGTERM ends a rank on mpirun's own host. */
        private static final int STOPPED = 128 + 15;

        @Override
        public void stopped() {
            exit(STOPPED);
        }

        @Override
        public void mpirunLost(String why) {
            if (!finalizing && abort == null && !ending) {
                err.println("polylink mpi: rank " + settings.rank() + " of job " + settings.job() + settings.onHost()
                    + " lost polylink mpirun, which " + why + "; the rank ends");
                exit(1);
            }
        }
    }

    /**
     * Prints whether the rank's direct buffers are shared, then, a line per other rank, the stack
     * {@code COMM_WORLD}'s messages take to it and why: each entry of that rank's descriptor table,
     * chosen or why not.
     */
    private void explain() {
        err.println("polylink mpi: rank " + settings.rank() + (shared != null
            ? " shares its direct buffers of more than " + p2p.limits().eagerLimit() + " bytes with the ranks on its host "
                + "through " + shared.directory() + ": their large messages are read where they lie, and large "
                + "messages that must be packed are packed there, into bounce buffers of up to "
                + (PointToPoint.BOUNCE_BYTES >> 20) + " MiB in all"
            : " shares no direct buffers with the ranks on its host (its log says why): large messages take two copies"));
        for (int r = 0; r < settings.size(); r++) {
            if (r != settings.rank()) {
                err.println("polylink mpi: rank " + settings.rank() + " reaches rank " + r + " by "
                    + p2p.explainLine(ContextIds.WORLD, r));
            }
        }
    }

    public Communicator commWorld() {
        return commWorld;
    }

    public Communicator commSelf() {
        return commSelf;
    }

    public World world() {
        return world;
    }

    public BufferedSends buffered() {
        return buffered;
    }

    public LaunchSettings settings() {
        return settings;
    }

    /** @return the thread that started the session */
    public Thread mainThread() {
        return main;
    }

    /** @return the abort that ended the job, or {@code null} */
    public Abort abort() {
        return abort;
    }

    /**
     * Once the job was aborted, ends the calling thread's part in it as the host ends the rank: a
     * host that ends the process does not return, so an application thread does not run on (and
     * throw) in a rank that is ending. Does nothing before an abort.
     */
    public void followAbort() {
        Abort a = abort;
        if (a != null) {
            exit(a.code());
        }
    }

    /**
     * {@code MPI_Finalize}: waits until every rank finalizes and has all this rank sent, then
     * leaves the registry and closes the context.
     *
     * @throws MpiError {@code ERR_PROC_ABORTED} if another rank was lost before it finalized
     */
    public void finish() {
        MpiError gone = null;
        finalizing = true;
        try {
            if (settings.size() > 1) {
                everyone(Header.FIN, true);
                // The farewells come through the methods' threads: this thread waits without receiving.
                p2p.limits().idle().handBack();
                farewells.awaitFins(() -> abort != null || farewells.lostBeforeFin(lost::containsKey) >= 0);
                int r = farewells.lostBeforeFin(lost::containsKey);
                if (r >= 0) {
                    gone = new MpiError(ErrorClass.ERR_PROC_ABORTED, "MPI.Finalize: rank " + r
                        + " of the job ended before it finalized: " + lost.get(r).getMessage(), lost.get(r));
                } else if (abort == null) {
                    everyone(Header.BYE, false);
                    farewells.awaitByes(settings.finalizeTimeout());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MpiError(ErrorClass.ERR_OTHER, "MPI.Finalize was interrupted waiting for the other ranks");
        } finally {
            close();
        }
        Abort a = abort;
        if (a != null) {
            throw aborted(a);
        }
        if (gone != null) {
            throw gone;
        }
    }

    /**
     * @param mustArrive whether a rank that cannot be reached fails {@code Finalize}: yes for FIN,
     *     which every rank waits for; no for BYE, since a rank that gave up waiting for BYEs may
     *     have closed, and every message before it arrived
     */
    private void everyone(int kind, boolean mustArrive) {
        for (int r = 0; r < settings.size(); r++) {
            if (r != settings.rank()) {
                try {
                    transport.farewell(kind, r);
                } catch (MpiError e) {
                    if (mustArrive) {
                        throw e;
                    }
                }
            }
        }
    }

    /** The JVM ends (SIGTERM, Ctrl-C, System.exit) before the rank finalized. */
    private void ending() {
        ending = true;
        deleteSharedFiles();
    }

    /**
     * Ends the rank through its host, its shared buffers' files deleted first (a host need not run
     * shutdown hooks); an application thread waits here for the end.
     */
    private void exit(int code) {
        deleteSharedFiles();
        host.exit(code);
        host.awaitExit();
    }

    /** Deletes the files of this rank's shared buffers, whose mappings outlive them; later buffers are ordinary. */
    private void deleteSharedFiles() {
        if (shared != null) {
            shared.close();
        }
    }

    /** @return this rank's shared direct buffers, or {@code null} where the host's ranks cannot share memory */
    public OwnSegments shared() {
        return shared;
    }

    private void close() {
        deleteSharedFiles();
        mainWatch.stop();
        liveness.close();
        forgetEnding();
        Wireup.withdraw(transport.context(), settings);
        MpirunLink link = mpirun;
        if (link != null) {
            link.close();
        }
        p2p.close();
        transport.close();
        host.close();
    }

    /**
     * Aborts the job: tells every rank, fails what is in flight here and ends this rank through
     * its host. Only the first abort counts.
     *
     * @param reason what made the rank abort, for its error output
     * @return the error later calls get, if the host let this rank go on
     */
    public MpiError abort(int code, String reason) {
        Abort a = new Abort(settings.rank(), code);
        if (ending) {
            // The process ends already (the launcher stops the job, or the program exits): what failed
            // failed because of that, and the others hear of it as this rank's end.
            exit(code);
            return new MpiError(ErrorClass.ERR_OTHER, "rank " + settings.rank() + " is ending: " + reason);
        }
        Abort earlier = recorded();
        if (earlier != null && earlier.rank() != settings.rank()) {
            // Another rank aborted the job first, and this one failed on that rank's end before its
            // abort came: the job's abort is what ends this rank, not a failure of its own.
            aborted(earlier.rank(), earlier.code());
            return aborted(abort);
        }
        if (!begin(a)) {
            return aborted(abort);
        }
        err.println("polylink mpi: rank " + settings.rank() + " of job " + settings.job() + " aborts the job with code "
            + code + ": " + reason);
        record(a, reason);
        MpirunLink link = mpirun;
        if (link != null) {
            link.abort(code, reason);
        }
        for (int r = 0; r < settings.size(); r++) {
            if (r != settings.rank()) {
                try {
                    transport.abort(r, code);
                } catch (MpiError unreachable) {
                    // That rank is gone already; the others still hear of the abort.
                }
            }
        }
        end(a);
        return aborted(a);
    }

    /**
     * Tells the launcher which rank aborted, and why: the first rank to abort writes the record;
     * the others find it there already.
     */
    private void record(Abort a, String reason) {
        Path record = settings.abortRecord();
        if (record != null) {
            try {
                Files.writeString(record, a.rank() + " " + a.code() + " " + reason.lines().findFirst().orElse("") + "\n",
                    StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            } catch (IOException | UncheckedIOException notFirstOrNowhere) {
                // Another rank aborted first, or the launcher's directory is gone: the launcher names the first rank
                // that ended.
            }
        }
    }

    /** @return the abort a rank recorded for the launcher, if a whole record is there, else {@code null} */
    private Abort recorded() {
        Path record = settings.abortRecord();
        if (record == null) {
            return null;
        }
        try {
            Matcher m = RECORD.matcher(Files.readString(record, StandardCharsets.UTF_8));
            return m.matches() ? new Abort(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))) : null;
        } catch (IOException | UncheckedIOException | NumberFormatException noneOrPartial) {
            return null;
        }
    }

    /**
     * Another rank aborted the job: this one ends. Called as the abort is delivered, perhaps on an
     * application thread receiving in a wait, which must not wait for the end here: the end closes
     * the runtime, which waits for the delivery to return. That thread waits for it once its call
     * sees the abort ({@link #followAbort}).
     */
    @Override
    public void aborted(int rank, int code) {
        Abort a = new Abort(rank, code);
        if (begin(a)) {
            err.println("polylink mpi: rank " + rank + " aborted job " + settings.job() + " with code " + code
                + "; rank " + settings.rank() + " ends");
            halt(a);
            deleteSharedFiles();
            host.exit(a.code());
        }
    }

    /** The thread that called {@code MPI.Init} ended, and did not finalize: the rank aborts the job. */
    private void mainEnded() {
        if (!finalizing && abort == null && !ending) {
            abort(1, "the thread that called MPI.Init (" + main.getName() + ") ended without calling MPI.Finalize");
        }
    }

    @Override
    public void farewell(int kind, int rank) {
        farewells.arrived(kind, rank);
    }

    @Override
    public void lost(int rank, MpiError error) {
        lost.putIfAbsent(rank, error);
        farewells.wake();
    }

    private synchronized boolean begin(Abort a) {
        if (abort != null) {
            return false;
        }
        abort = a;
        return true;
    }

    private void end(Abort a) {
        halt(a);
        exit(a.code());
    }

    /** Stops watching the rank and fails what is in flight, for the end of an abort. */
    private void halt(Abort a) {
        mainWatch.stop();
        liveness.stop();
        forgetEnding();
        p2p.fail(aborted(a));
        farewells.wake();
    }

    private void forgetEnding() {
        try {
            Runtime.getRuntime().removeShutdownHook(endingHook);
        } catch (IllegalStateException alreadyEnding) {
            // the hook runs: nothing to remove
        }
    }

    /** @return the error of every call after an abort */
    public MpiError aborted(Abort a) {
        return new MpiError(ErrorClass.ERR_PROC_ABORTED, a.rank() == settings.rank()
            ? "rank " + a.rank() + " aborted the job with code " + a.code()
            : "the job was aborted by rank " + a.rank() + " with code " + a.code());
    }
}
