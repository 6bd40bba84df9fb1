package io.polylink.mpi.programs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.IntBuffer;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import mpi.MPI;
import mpi.MPIException;
import mpi.Message;
import mpi.Request;
import mpi.Status;

/**
 * Probes: {@code iProbe} finds nothing before a message arrives and its status after;
 * {@code probe} waits for one and sizes the receive; a matched probe takes the message away from
 * every other receive, so two threads probing at once each receive different messages; probes of
 * {@code PROC_NULL} answer at once.
 */
public final class Probes {

    private static final int TAKEN = 40;

    private Probes() {}

    public static void main(String[] args) throws Exception {
        MPI.InitThread(args, MPI.THREAD_MULTIPLE);
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        int me = MPI.COMM_WORLD.getRank();
        if (me == 0) {
            MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 1, 0);
            MPI.COMM_WORLD.send(new int[] {1, 2, 3}, 3, MPI.INT, 1, 5);
            MPI.COMM_WORLD.send(new int[20_000], 20_000, MPI.INT, 1, 6);
            for (int i = 0; i < TAKEN; i++) {
                MPI.COMM_WORLD.send(new int[] {i}, 1, MPI.INT, 1, 7);
            }
        } else if (me == 1) {
            assertNull(MPI.COMM_WORLD.iProbe(0, 5), "nothing was sent yet");
            MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, 0, 0);
            Status s = MPI.COMM_WORLD.probe(MPI.ANY_SOURCE, 5);
            assertEquals(0, s.getSource());
            assertEquals(3, s.getCount(MPI.INT));
            Status again;
            while ((again = MPI.COMM_WORLD.iProbe(0, MPI.ANY_TAG)) == null) {
                Thread.onSpinWait();
            }
            assertEquals(5, again.getTag(), "a probe leaves the message for the receive");
            int[] three = new int[s.getCount(MPI.INT)];
            MPI.COMM_WORLD.recv(three, three.length, MPI.INT, 0, 5);
            assertEquals(3, three[2]);

            Status large = MPI.COMM_WORLD.probe(0, 6);
            assertEquals(20_000, large.getCount(MPI.INT), "a probe sees a large message's length");
            Message m = new Message();
            assertTrue(m.isNull());
            Status taken = m.mProbe(0, 6, MPI.COMM_WORLD);
            assertEquals(20_000, taken.getCount(MPI.INT));
            assertFalse(m.isNull());
            assertNull(MPI.COMM_WORLD.iProbe(0, 6), "a matched probe takes the message out of matching");
            int[] into = new int[20_000];
            m.mRecv(into, into.length, MPI.INT);
            assertTrue(m.isNull(), "a received message is MPI_MESSAGE_NULL");

            Set<Integer> received = ConcurrentHashMap.newKeySet();
            Thread[] threads = new Thread[2];
            Throwable[] failed = new Throwable[2];
            for (int t = 0; t < 2; t++) {
                int which = t;
                threads[t] = new Thread(() -> {
                    try {
                        for (int i = 0; i < TAKEN / 2; i++) {
                            Message mine = new Message();
                            if (which == 0) {
                                mine.mProbe(0, 7, MPI.COMM_WORLD);
                            } else {
                                while (mine.imProbe(0, 7, MPI.COMM_WORLD) == null) {
                                    Thread.onSpinWait();
                                }
                            }
                            IntBuffer one = MPI.newIntBuffer(1);
                            Request r = mine.imRecv(one, 1, MPI.INT);
                            r.waitFor();
                            assertTrue(received.add(one.get(0)), "message " + one.get(0) + " received twice");
                        }
                    } catch (Throwable e) {
                        failed[which] = e;
                    }
                }, "prober-" + t);
                threads[t].start();
            }
            for (Thread t : threads) {
                t.join();
            }
            for (Throwable f : failed) {
                if (f != null) {
                    throw new AssertionError("a probing thread failed", f);
                }
            }
            assertEquals(TAKEN, received.size(), "each message once");

            Status nobody = MPI.COMM_WORLD.probe(MPI.PROC_NULL, 3);
            assertEquals(MPI.PROC_NULL, nobody.getSource());
            assertEquals(0, nobody.getCount(MPI.INT));
            assertNotNull(MPI.COMM_WORLD.iProbe(MPI.PROC_NULL, MPI.ANY_TAG));
            Message noProc = new Message();
            noProc.mProbe(MPI.PROC_NULL, 0, MPI.COMM_WORLD);
            assertTrue(noProc.isNoProc());
            assertEquals(MPI.PROC_NULL, noProc.mRecv(new int[1], 1, MPI.INT).getSource());
        }
        MPI.Finalize();
    }
}
