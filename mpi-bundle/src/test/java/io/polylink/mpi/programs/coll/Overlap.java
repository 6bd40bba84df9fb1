package io.polylink.mpi.programs.coll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import mpi.Info;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Non-blocking collectives complete while the application computes and calls nothing of MPI.
 * Each rank starts an {@code iAllReduce} of a large vector, then computes, calling no MPI method,
 * and watches its receive buffer: the whole result appears there before the rank calls MPI again,
 * so every step (the ranks' messages, their combination, the final copy) ran on the ranks'
 * Polylink threads as messages arrived. Then the same for an {@code iBcast} pipelined down a
 * chain, whose middle ranks pass each segment on while they compute. Each rank prints, from its
 * clock, when it posted, when it saw the result and how long the wait took afterwards.
 */
public final class Overlap {

    private static final VarHandle DOUBLE = MethodHandles.byteBufferViewVarHandle(double[].class,
        ByteOrder.nativeOrder());
    private static final int COUNT = 1 << 18;
    private static final long LIMIT = TimeUnit.SECONDS.toNanos(60);

    private Overlap() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int me = world.getRank();
        int n = world.getSize();
        ByteBuffer send = MPI.newByteBuffer(8 * COUNT);
        ByteBuffer recv = MPI.newByteBuffer(8 * COUNT);
        for (int i = 0; i < COUNT; i++) {
            send.putDouble(8 * i, me + i);
        }
        world.barrier();
        long posted = System.nanoTime();
        Request r = world.iAllReduce(send.asDoubleBuffer(), recv.asDoubleBuffer(), COUNT, MPI.DOUBLE, MPI.SUM);
        double sumOfRanks = n * (n - 1) / 2.0;
        long seen = computeUntil(recv, COUNT - 1, sumOfRanks + (double) n * (COUNT - 1), posted);
        r.waitFor();
        long waited = System.nanoTime() - seen;
        for (int i = 0; i < COUNT; i++) {
            assertEquals(sumOfRanks + (double) n * i, recv.getDouble(8 * i), "iAllReduce at " + i);
        }
        report("iAllReduce", posted, seen, waited);

        Info chain = new Info();
        chain.set("polylink.coll.bcast", "pipeline");
        chain.set("polylink.coll.segment", "16384");
        Intracomm c = world.dupWithInfo(chain);
        ByteBuffer data = MPI.newByteBuffer(8 * COUNT);
        if (me == 0) {
            for (int i = 0; i < COUNT; i++) {
                data.putDouble(8 * i, 0.5 * i);
            }
        }
        c.barrier();
        posted = System.nanoTime();
        r = c.iBcast(data.asDoubleBuffer(), COUNT, MPI.DOUBLE, 0);
        seen = me == 0 ? posted : computeUntil(data, COUNT - 1, 0.5 * (COUNT - 1), posted);
        r.waitFor();
        waited = System.nanoTime() - seen;
        for (int i = 0; i < COUNT; i++) {
            assertEquals(0.5 * i, data.getDouble(8 * i), "iBcast at " + i);
        }
        report("iBcast", posted, seen, waited);
        c.free();
        MPI.Finalize();
    }

    /**
     * Computes, calling no MPI method, until element {@code i} of {@code buffer} holds {@code expected}.
     *
     * @return when it did
     */
    private static long computeUntil(ByteBuffer buffer, int i, double expected, long since) {
        double work = 1;
        while ((double) DOUBLE.getAcquire(buffer, 8 * i) != expected) {
            for (int k = 0; k < 1_000; k++) {
                work = work * 1.000001 + 1e-9;
            }
            if (System.nanoTime() - since > LIMIT) {
                fail("the collective did not complete within 60 s while the application computed (work " + work + ")");
            }
        }
        return System.nanoTime();
    }

    private static void report(String what, long posted, long seen, long waited) {
        System.out.printf("%s: result complete %.1f ms after posting, seen before any further MPI call; "
            + "the wait then took %.3f ms%n", what, (seen - posted) / 1e6, waited / 1e6);
    }
}
