package io.polylink.mpi.programs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * {@code MPI_THREAD_MULTIPLE}: four threads per rank exchange numbered streams with every other
 * rank at once, each on its own tag, and check each stream arrives whole and in order; then two
 * threads per rank duplicate two communicators at the same time, and the duplicates keep their
 * traffic apart.
 */
public final class Threads {

    private static final int THREADS = 4;
    private static final int MESSAGES = 150;

    private Threads() {}

    public static void main(String[] args) throws Exception {
        int provided = MPI.InitThread(args, MPI.THREAD_MULTIPLE);
        assertEquals(MPI.THREAD_MULTIPLE, provided);
        assertEquals(MPI.THREAD_MULTIPLE, MPI.queryThread());
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        int me = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        run(THREADS, t -> {
            for (int peer = 0; peer < size; peer++) {
                if (peer == me) {
                    continue;
                }
                for (int i = 0; i < MESSAGES; i++) {
                    int[] got = new int[2];
                    Status s = MPI.COMM_WORLD.sendRecv(new int[] {me, i}, 2, MPI.INT, peer, t,
                        got, 2, MPI.INT, peer, t);
                    assertEquals(peer, got[0], "thread " + t);
                    assertEquals(i, got[1], "thread " + t + ": message " + i + " from rank " + peer);
                    assertEquals(t, s.getTag());
                }
            }
        });
        assertEquals(true, MPI.isThreadMain());
        Intracomm a = MPI.COMM_WORLD.dup();
        Intracomm b = MPI.COMM_WORLD.dup();
        Intracomm[] made = new Intracomm[2];
        run(2, t -> made[t] = (t == 0 ? a : b).dup());
        int next = (me + 1) % size;
        int previous = (me + size - 1) % size;
        int[] got = new int[1];
        made[1].send(new int[] {1}, 1, MPI.INT, next, 0);
        made[0].send(new int[] {0}, 1, MPI.INT, next, 0);
        made[0].recv(got, 1, MPI.INT, previous, MPI.ANY_TAG);
        assertEquals(0, got[0], "duplicates made at the same time by two threads have their own contexts");
        made[1].recv(got, 1, MPI.INT, previous, MPI.ANY_TAG);
        assertEquals(1, got[0]);
        MPI.Finalize();
    }

    interface Body {
        void run(int thread) throws Exception;
    }

    private static void run(int threads, Body body) throws Exception {
        List<Thread> started = new ArrayList<>();
        Throwable[] failed = new Throwable[threads];
        for (int t = 0; t < threads; t++) {
            int which = t;
            Thread thread = new Thread(() -> {
                try {
                    body.run(which);
                } catch (Throwable e) {
                    failed[which] = e;
                }
            }, "worker-" + t);
            started.add(thread);
            thread.start();
        }
        for (Thread t : started) {
            t.join();
        }
        for (Throwable f : failed) {
            if (f != null) {
                throw new AssertionError("a thread failed", f);
            }
        }
    }
}
