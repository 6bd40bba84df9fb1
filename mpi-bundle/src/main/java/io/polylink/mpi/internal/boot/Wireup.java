package io.polylink.mpi.internal.boot;

import io.polylink.Context;
import io.polylink.PolylinkException;
import io.polylink.Startpoint;
import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

/**
 * Finds the job's ranks: from the {@code polylink mpirun} that started them on several hosts, or
 * through a naming registry (a directory or ZooKeeper), where this rank publishes its startpoint
 * under {@code mpi.<job>.<rank>} and looks the others up until all are there, within the settings'
 * wire-up timeout.
 */
final class Wireup {

    private static final long FIRST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long LONGEST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private Wireup() {}

    /**
     * @param self this rank's startpoint
     * @param mpirun the link to mpirun, or {@code null}: without a registry, mpirun says where the
     *     ranks are
     * @return every rank's startpoint, by rank; {@code self} at this rank's place
     * @throws MpiError {@code ERR_OTHER} naming the ranks that did not appear in time, or the
     *     registry's failure
     */
    static Startpoint[] connect(Context context, LaunchSettings settings, Startpoint self, MpirunLink mpirun) {
        Startpoint[] peers = new Startpoint[settings.size()];
        peers[settings.rank()] = self;
        if (settings.size() == 1) {
            return peers;
        }
        if (mpirun != null && settings.registry() == null && settings.zookeeper() == null) {
            return fromMpirun(context, settings, mpirun, peers);
        }
        long deadline = System.nanoTime() + settings.wireupTimeout().toNanos();
        long pause = FIRST_PAUSE_NANOS;
        // A registry bundle started with the context (ZooKeeper's) may take a moment to connect and serve.
        while (true) {
            try {
                context.publish(settings.name(settings.rank()), self);
                break;
            } catch (PolylinkException e) {
                if (settings.zookeeper() == null || System.nanoTime() - deadline > 0) {
                    throw new MpiError(ErrorClass.ERR_OTHER, "rank " + settings.rank() + " of job " + settings.job()
                        + " cannot publish itself in " + settings.meetingPlace() + ": " + e.getMessage(), e);
                }
            }
            LockSupport.parkNanos(pause);
            pause = Math.min(pause * 2, LONGEST_PAUSE_NANOS);
        }
        pause = FIRST_PAUSE_NANOS;
        List<Integer> missing = new ArrayList<>();
        for (int r = 0; r < peers.length; r++) {
            if (r != settings.rank()) {
                missing.add(r);
            }
        }
        while (true) {
            for (var it = missing.iterator(); it.hasNext(); ) {
                int r = it.next();
                Optional<Startpoint> found = lookup(context, settings, r);
                if (found.isPresent()) {
                    peers[r] = found.get();
                    it.remove();
                }
            }
            if (missing.isEmpty()) {
                return peers;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new MpiError(ErrorClass.ERR_OTHER, "rank " + settings.rank() + " of job " + settings.job()
                    + " waited " + settings.wireupTimeout().toMillis() + " ms for the other ranks in "
                    + settings.meetingPlace() + "; rank" + (missing.size() == 1 ? " " : "s ")
                    + missing.stream().map(String::valueOf).collect(Collectors.joining(", "))
                    + " did not appear. Were they started with the same " + LaunchSettings.JOB + " and "
                    + LaunchSettings.REGISTRY + "? (" + LaunchSettings.WIREUP_TIMEOUT_MS + " sets the wait)");
            }
            LockSupport.parkNanos(pause);
            pause = Math.min(pause * 2, LONGEST_PAUSE_NANOS);
        }
    }

    private static Startpoint[] fromMpirun(Context context, LaunchSettings settings, MpirunLink mpirun,
                                           Startpoint[] peers) {
        Map<Integer, String> texts;
        try {
            texts = mpirun.peers(settings.wireupTimeout());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MpiError(ErrorClass.ERR_OTHER, "rank " + settings.rank() + " of job " + settings.job()
                + " was interrupted waiting for the other ranks");
        } catch (MpiError e) {
            throw new MpiError(ErrorClass.ERR_OTHER, "rank " + settings.rank() + " of job " + settings.job()
                + settings.onHost() + ": " + e.getMessage(), e);
        }
        for (int r = 0; r < peers.length; r++) {
            if (r != settings.rank()) {
                try {
                    peers[r] = context.startpoint(texts.get(r));
                } catch (RuntimeException e) {
                    throw new MpiError(ErrorClass.ERR_OTHER, "rank " + settings.rank() + " of job " + settings.job()
                        + " cannot read the startpoint polylink mpirun gave for rank " + r + ": " + e.getMessage(), e);
                }
            }
        }
        return peers;
    }

    private static Optional<Startpoint> lookup(Context context, LaunchSettings settings, int rank) {
        try {
            return context.lookup(settings.name(rank));
        } catch (PolylinkException e) {
            throw new MpiError(ErrorClass.ERR_OTHER, "rank " + settings.rank() + " of job " + settings.job()
                + " cannot read " + settings.meetingPlace() + ": " + e.getMessage(), e);
        }
    }

    /** Withdraws this rank's name; a registry that fails now is not worth failing {@code Finalize} for. */
    static void withdraw(Context context, LaunchSettings settings) {
        if (settings.size() > 1) {
            try {
                context.unpublish(settings.name(settings.rank()));
            } catch (PolylinkException e) {
                // The job is over; a stale name under this job's unique id misleads no one.
            }
        }
    }
}
