package io.polylink.mpi.internal.boot;

import io.polylink.Context;
import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.comm.Communicator;
import io.polylink.mpi.internal.comm.World;
import io.polylink.mpi.internal.p2p.BufferedSends;
import io.polylink.mpi.internal.p2p.ControlListener;
import io.polylink.mpi.internal.p2p.Limits;
import io.polylink.mpi.internal.p2p.PointToPoint;
import io.polylink.mpi.internal.p2p.Transport;
import io.polylink.mpi.internal.wire.Header;
import java.io.PrintStream;

/**
 * An initialized rank: its host, context, messaging and predefined communicators, from
 * {@code MPI.Init} to {@code MPI.Finalize}, and the abort that may end it sooner. Thread-safe.
 */
public final class Session implements ControlListener {

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
    private final Thread main = Thread.currentThread();
    private final PrintStream err = System.err;
    private volatile Abort abort;

    private Session(RankHost host, LaunchSettings settings, Context context) {
        this.host = host;
        this.settings = settings;
        this.farewells = new Farewells(settings.size(), settings.rank());
        Limits limits = settings.limits().fitting(context.maxMessageSize());
        this.transport = new Transport(context, settings.rank(), limits);
        this.p2p = new PointToPoint(transport, limits, this);
        this.world = new World(p2p, settings.rank(), settings.size());
        this.commWorld = Communicator.world(world);
        this.commSelf = Communicator.self(world);
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
        Context context;
        try {
            context = host.open(settings);
        } catch (Exception e) {
            host.close();
            throw new MpiError(ErrorClass.ERR_OTHER, "MPI.Init: rank " + settings.rank() + " of job " + settings.job()
                + " could not open its Polylink context: " + e.getMessage(), e);
        }
        try {
            Session s = new Session(host, settings, context);
            s.transport.peers(Wireup.connect(context, settings, s.transport.startpoint()));
            return s;
        } catch (RuntimeException e) {
            Wireup.withdraw(context, settings);
            host.close();
            throw e;
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
     * {@code MPI_Finalize}: waits until every rank finalizes and has all this rank sent, then
     * leaves the registry and closes the context.
     *
     * @throws MpiError {@code ERR_OTHER} if another rank cannot be reached
     */
    public void finish() {
        try {
            if (settings.size() > 1) {
                everyone(Header.FIN, true);
                farewells.awaitFins(() -> abort != null);
                if (abort == null) {
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

    private void close() {
        Wireup.withdraw(transport.context(), settings);
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
        if (!begin(a)) {
            return aborted(abort);
        }
        err.println("polylink mpi: rank " + settings.rank() + " of job " + settings.job() + " aborts the job with code "
            + code + ": " + reason);
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

    @Override
    public void aborted(int rank, int code) {
        Abort a = new Abort(rank, code);
        if (begin(a)) {
            err.println("polylink mpi: rank " + rank + " aborted job " + settings.job() + " with code " + code
                + "; rank " + settings.rank() + " ends");
            end(a);
        }
    }

    @Override
    public void farewell(int kind, int rank) {
        farewells.arrived(kind, rank);
    }

    private synchronized boolean begin(Abort a) {
        if (abort != null) {
            return false;
        }
        abort = a;
        return true;
    }

    private void end(Abort a) {
        p2p.fail(aborted(a));
        farewells.wake();
        host.exit(a.code());
    }

    /** @return the error of every call after an abort */
    public MpiError aborted(Abort a) {
        return new MpiError(ErrorClass.ERR_PROC_ABORTED, a.rank() == settings.rank()
            ? "rank " + a.rank() + " aborted the job with code " + a.code()
            : "the job was aborted by rank " + a.rank() + " with code " + a.code());
    }
}
