package io.polylink.bench.internal;

import java.util.concurrent.TimeUnit;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The mpi engine's own work for one small message, with no wire and no other thread: a
 * {@code sendRecv} of a rank to itself on {@code COMM_SELF}, in a job of one rank (the JVM that
 * runs the benchmark, started as a singleton by {@code MPI.Init}). The send packs the data and its
 * header and hands the RSR to the context, which delivers it on this thread to the engine's
 * handler; the handler matches the receive posted just before, unpacks and completes it. Every
 * point-to-point message and every step of a collective pays this on its two ends, so a change
 * to matching, packing or completion shows here first, far more steadily than in a two-process
 * ping-pong. Run with {@code -prof gc} for the allocations, and with perfasm (see
 * docs/benchmarks.md#jmh) for where the time goes.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class MpiSelfMessage {

    static final int TAG = 1;

    @Param({"8"})
    public int size;

    private Intracomm self;
    private byte[] sent;
    private byte[] received;

    @Setup
    public void init() throws MPIException {
        MPI.Init(new String[0]);
        self = MPI.COMM_SELF;
        sent = new byte[size];
        received = new byte[size];
        for (int i = 0; i < size; i++) {
            sent[i] = (byte) (i + 1);
        }
        // Proves the message arrives whole before anything is measured.
        Status status = sendRecv();
        if (status.getCount(MPI.BYTE) != size || size > 0 && received[size - 1] != sent[size - 1]) {
            throw new IllegalStateException("a " + size + "-byte sendRecv to self received "
                + status.getCount(MPI.BYTE) + " bytes");
        }
    }

    @TearDown
    public void finish() throws MPIException {
        MPI.Finalize();
    }

    byte[] sent() {
        return sent;
    }

    byte[] received() {
        return received;
    }

    /** One message sent and received, from and into byte arrays. */
    @Benchmark
    public Status sendRecv() throws MPIException {
        Datatype bytes = MPI.BYTE;
        return self.sendRecv(sent, size, bytes, 0, TAG, received, size, bytes, 0, TAG);
    }
}
