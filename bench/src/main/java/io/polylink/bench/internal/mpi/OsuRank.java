package io.polylink.bench.internal.mpi;

import io.polylink.bench.internal.CompilerActivity;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * The Java side of {@code bench mpi}: the measurements of {@code osu.c}, with the same arguments
 * and the same output, run by each rank of a Polylink job (two for the point-to-point tests).
 * Blocking calls take arrays, non-blocking ones a direct buffer, as the Open MPI bindings'
 * programs do.
 *
 * <pre>
 *   OsuRank TESTS SIZES OVERLAP_SIZE COMPUTE_US WINDOW WARMUP   (see osu.c)
 * </pre>
 */
public final class OsuRank {

    private static final int TAG = 1;
    private static final int ACK = 2;

    private static final int WARMUP_BATCH = 1_000;
    private static final long QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    private static final long WARMUP_MIN_NANOS = TimeUnit.SECONDS.toNanos(2);
    private static final long WARMUP_MAX_NANOS = TimeUnit.SECONDS.toNanos(15);

    /** Calls of each collective at 8 bytes before any is measured, so that the JIT compiled their paths. */
    private static final int COLLECTIVE_WARMUP = 2_000;

    private final int rank;
    private final int size;
    private final byte[] array;
    private final ByteBuffer direct;
    private final Request[] requests;
    private final int largest;
    private byte[] sendAll = new byte[0];
    private byte[] recvAll = new byte[0];
    private double[] doubles = new double[0];
    private double[] sums = new double[0];

    private OsuRank(int rank, int size, int largest, int window) {
        this.rank = rank;
        this.size = size;
        this.largest = largest;
        this.array = new byte[Math.max(1, largest)];
        this.direct = MPI.newByteBuffer(Math.max(1, largest));
        this.requests = new Request[window];
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        if (args.length != 6) {
            System.err.println("usage: OsuRank TESTS SIZES OVERLAP_SIZE COMPUTE_US WINDOW WARMUP");
            MPI.COMM_WORLD.abort(2);
        }
        List<String> tests = List.of(args[0].split(","));
        String[] sizes = args[1].split(",");
        int overlapSize = Integer.parseInt(args[2]);
        int window = Integer.parseInt(args[4]);
        int largest = overlapSize;
        for (String item : sizes) {
            largest = Math.max(largest, Integer.parseInt(item.split(":")[0]));
        }
        OsuRank me = new OsuRank(MPI.COMM_WORLD.getRank(), MPI.COMM_WORLD.getSize(), largest, window);
        List<String> collectives = Stream.of("bcast", "reduce", "allreduce", "alltoall").filter(tests::contains).toList();
        if (tests.contains("barrier")) {
            me.collective("barrier", 0, COLLECTIVE_WARMUP);
            me.timed("barrier", 0, COLLECTIVE_WARMUP);
        }
        for (String c : collectives) {
            me.collective(c, 8, COLLECTIVE_WARMUP);
        }
        // Last, so that what the collectives' warm-up gave the JIT to compile is compiled before the first figure.
        if (tests.contains("latency") || tests.contains("bw") || tests.contains("overlap")) {
            me.warmUp(Integer.parseInt(args[5]));
        }
        for (String item : sizes) {
            String[] f = item.split(":");
            int size = Integer.parseInt(f[0]);
            if (tests.contains("latency")) {
                me.latency(size, Integer.parseInt(f[1]));
            }
            if (tests.contains("bw") && size > 0) {
                me.bandwidth(size, Integer.parseInt(f[2]));
            }
            if (size >= 8) {
                for (String c : collectives) {
                    me.timed(c, size, Integer.parseInt(f[3]));
                }
            }
        }
        if (tests.contains("overlap")) {
            for (String item : args[3].split(",")) {
                String[] f = item.split(":");
                me.overlap(overlapSize, Integer.parseInt(f[0]), Integer.parseInt(f[1]));
            }
        }
        MPI.Finalize();
    }

    /**
     * 8-byte ping-pongs: {@code iterations}, then batches of {@link #WARMUP_BATCH} until neither
     * rank's JIT compiler threads used CPU through {@link #QUIET_NANOS} of them, after at least
     * {@link #WARMUP_MIN_NANOS} and at most {@link #WARMUP_MAX_NANOS} in all (rank 0's clock). On
     * two cores two busy ranks leave the compiler threads little time, so a fixed count can end
     * while the paths are still being compiled, and the figures then measure the compiler.
     */
    private void warmUp(int iterations) throws MPIException {
        long start = System.nanoTime();
        pingpong(8, iterations);
        CompilerActivity jit = CompilerActivity.of(ProcessHandle.current().pid());
        long[] word = new long[3]; // compiled in this window, the window is over, give up
        long windowStart = System.nanoTime();
        long ticks = jit.ticks();
        while (true) {
            pingpong(8, WARMUP_BATCH);
            long now = System.nanoTime();
            word[0] = jit.ticks() != ticks ? 1 : 0;
            word[1] = rank == 0 && now - windowStart >= QUIET_NANOS ? 1 : 0;
            word[2] = rank == 0 && now - start >= WARMUP_MAX_NANOS ? 1 : 0;
            MPI.COMM_WORLD.allReduce(word, 3, MPI.LONG, MPI.MAX);
            if (word[2] == 1) {
                return;
            }
            if (word[1] == 1) {
                if (word[0] == 0 && now - start >= WARMUP_MIN_NANOS) {
                    return;
                }
                windowStart = now;
                ticks = jit.ticks();
            }
        }
    }

    private void pingpong(int size, int iterations) throws MPIException {
        for (int i = 0; i < iterations; i++) {
            if (rank == 0) {
                MPI.COMM_WORLD.send(array, size, MPI.BYTE, 1, TAG);
                MPI.COMM_WORLD.recv(array, size, MPI.BYTE, 1, TAG);
            } else {
                MPI.COMM_WORLD.recv(array, size, MPI.BYTE, 0, TAG);
                MPI.COMM_WORLD.send(array, size, MPI.BYTE, 0, TAG);
            }
        }
    }

    /** Calls collective {@code test} of {@code size} bytes {@code iterations} times, untimed. */
    private void collective(String test, int size, int iterations) throws MPIException {
        for (int i = 0; i < iterations; i++) {
            call(test, size);
        }
    }

    private void call(String test, int bytes) throws MPIException {
        switch (test) {
            case "barrier" -> MPI.COMM_WORLD.barrier();
            case "bcast" -> MPI.COMM_WORLD.bcast(array, bytes, MPI.BYTE, 0);
            case "reduce" -> MPI.COMM_WORLD.reduce(doubles(bytes), sums, bytes / 8, MPI.DOUBLE, MPI.SUM, 0);
            case "allreduce" -> MPI.COMM_WORLD.allReduce(doubles(bytes), sums, bytes / 8, MPI.DOUBLE, MPI.SUM);
            default -> {
                if (sendAll.length < bytes * size) {
                    sendAll = new byte[largest * size];
                    recvAll = new byte[largest * size];
                }
                MPI.COMM_WORLD.allToAll(sendAll, bytes, MPI.BYTE, recvAll, bytes, MPI.BYTE);
            }
        }
    }

    /** @return doubles for {@code bytes / 8} of them, with as many sums */
    private double[] doubles(int bytes) {
        if (doubles.length * 8 < bytes) {
            doubles = new double[largest / 8 + 1];
            sums = new double[doubles.length];
        }
        return doubles;
    }

    /**
     * Times {@code iterations} calls of collective {@code test} as the OSU benchmarks do: each rank
     * times each call, with a barrier between calls, after a tenth more untimed; rank 0 prints the
     * ranks' average time per call as {@code result TEST_RANKS SIZE 0 US}.
     */
    private void timed(String test, int bytes, int iterations) throws MPIException {
        int skip = iterations / 10 + 1;
        long total = 0;
        for (int i = 0; i < skip + iterations; i++) {
            long start = System.nanoTime();
            call(test, bytes);
            long took = System.nanoTime() - start;
            if (i >= skip) {
                total += took;
            }
            if (!test.equals("barrier")) {
                MPI.COMM_WORLD.barrier();
            }
        }
        double[] mine = {total / 1e3 / iterations};
        double[] all = new double[1];
        MPI.COMM_WORLD.reduce(mine, all, 1, MPI.DOUBLE, MPI.SUM, 0);
        if (rank == 0) {
            print(test + "_" + size, bytes, 0, all[0] / size);
        }
    }

    private void latency(int size, int iterations) throws MPIException {
        pingpong(size, iterations / 10 + 1);
        MPI.COMM_WORLD.barrier();
        long start = System.nanoTime();
        pingpong(size, iterations);
        double micros = (System.nanoTime() - start) / 1e3;
        if (rank == 0) {
            print("latency", size, 0, micros / (2.0 * iterations));
        }
    }

    private void windows(int size, int iterations) throws MPIException {
        byte[] ack = new byte[1];
        for (int i = 0; i < iterations; i++) {
            for (int w = 0; w < requests.length; w++) {
                requests[w] = rank == 0 ? MPI.COMM_WORLD.iSend(direct, size, MPI.BYTE, 1, TAG)
                    : MPI.COMM_WORLD.iRecv(direct, size, MPI.BYTE, 0, TAG);
            }
            Request.waitAll(requests);
            if (rank == 0) {
                MPI.COMM_WORLD.recv(ack, 1, MPI.BYTE, 1, ACK);
            } else {
                MPI.COMM_WORLD.send(ack, 1, MPI.BYTE, 0, ACK);
            }
        }
    }

    private void bandwidth(int size, int iterations) throws MPIException {
        windows(size, iterations / 10 + 1);
        MPI.COMM_WORLD.barrier();
        long start = System.nanoTime();
        windows(size, iterations);
        double seconds = (System.nanoTime() - start) / 1e9;
        if (rank == 0) {
            print("bw", size, 0, (double) size * requests.length * iterations / seconds / 1e6);
        }
    }

    private void overlap(int size, int micros, int iterations) throws MPIException {
        long waited = 0;
        for (int i = 0; i < iterations; i++) {
            MPI.COMM_WORLD.barrier();
            Request request = rank == 0 ? MPI.COMM_WORLD.iSend(direct, size, MPI.BYTE, 1, TAG)
                : MPI.COMM_WORLD.iRecv(direct, size, MPI.BYTE, 0, TAG);
            compute(micros);
            long before = System.nanoTime();
            request.waitFor();
            waited += System.nanoTime() - before;
        }
        print(rank == 0 ? "overlap_send_wait" : "overlap_recv_wait", size, micros, waited / 1e3 / iterations);
    }

    /** Spins on the clock, calling nothing of MPI: the application computing. */
    private static void compute(int micros) {
        long until = System.nanoTime() + micros * 1_000L;
        while (System.nanoTime() - until < 0) {
            Thread.onSpinWait();
        }
    }

    private static void print(String test, int size, int computeMicros, double value) {
        System.out.printf(java.util.Locale.ROOT, "result %s %d %d %.4f%n", test, size, computeMicros, value);
    }
}
