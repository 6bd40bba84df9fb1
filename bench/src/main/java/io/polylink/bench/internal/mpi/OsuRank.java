package io.polylink.bench.internal.mpi;

import io.polylink.bench.internal.CompilerActivity;
import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * The Java side of {@code bench mpi}: the measurements of {@code osu.c}, with the same arguments
 * and the same output, run by each rank of a Polylink job (two for the point-to-point tests).
 * With BUFFERS {@code arrays}, blocking calls take arrays, non-blocking ones a direct buffer, as
 * the Open MPI bindings' programs do; with {@code direct}, every call takes buffers of
 * {@code MPI.newByteBuffer} and {@code MPI.newDoubleBuffer}.
 *
 * <pre>
 *   OsuRank TESTS SIZES OVERLAP_SIZE COMPUTE_US WINDOW WARMUP BUFFERS   (see osu.c)
 * </pre>
 */
public final class OsuRank {

    private static final int TAG = 1;
    private static final int ACK = 2;
    private static final int SETTLE = 3;
    /** Rank 0's verdicts after a batch of {@link #settle}. */
    private static final long SAME_WINDOW = 0;
    private static final long NEXT_WINDOW = 1;
    private static final long SETTLED = 2;

    private static final int WARMUP_BATCH = 1_000;
    private static final long WARMUP_WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    /**
     * The window of each latency size's untimed ping-pongs, and the most they may take: a 256 KiB
     * ping-pong over tcp went on compiling for 3-4 s on two cores, its mean falling from 1.6 ms to 45 µs.
     */
    private static final long SIZE_WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long SIZE_SETTLE_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** The overlap experiment settles longer: a 1 MiB message's non-blocking path took 1–3 s to settle. */
    private static final long OVERLAP_SETTLE_NANOS = TimeUnit.SECONDS.toNanos(4);
    /** Computation in the overlap experiment's settling iterations: long enough for a message to progress meanwhile. */
    private static final int OVERLAP_SETTLE_COMPUTE_US = 200;
    /** How close two windows' time per round trip must be for the ranks to count as settled. */
    private static final double STEADY = 0.1;
    /** A tcp ping-pong's rate kept improving, a few percent a window, for 4 to 5 s (docs/performance-notes.md#mpi-warm-up). */
    private static final long WARMUP_MIN_NANOS = TimeUnit.SECONDS.toNanos(6);
    private static final long WARMUP_MAX_NANOS = TimeUnit.SECONDS.toNanos(15);

    /** Calls of each collective at 8 bytes before any is measured, so that the JIT compiled their paths. */
    private static final int COLLECTIVE_WARMUP = 2_000;

    private final int rank;
    private final int size;
    private final byte[] array;
    private final ByteBuffer direct;
    private final Request[] requests;
    private final int largest;
    private final CompilerActivity jit = CompilerActivity.of(ProcessHandle.current().pid());
    private byte[] sendAll = new byte[0];
    private byte[] recvAll = new byte[0];
    private double[] doubles = new double[0];
    private double[] sums = new double[0];
    /** Whether every call takes direct buffers; then these, else the arrays above. */
    private final boolean directOnly;
    private DoubleBuffer directDoubles;
    private DoubleBuffer directSums;
    private ByteBuffer directSendAll;
    private ByteBuffer directRecvAll;
    private boolean overlapSettled;

    private OsuRank(int rank, int size, int largest, int window, boolean directOnly) {
        this.directOnly = directOnly;
        this.rank = rank;
        this.size = size;
        this.largest = largest;
        this.array = new byte[Math.max(1, largest)];
        this.direct = MPI.newByteBuffer(Math.max(1, largest));
        this.requests = new Request[window];
    }

    /** One item of the sizes argument: {@code SIZE:LATENCY_ITERATIONS:BW_ITERATIONS:COLLECTIVE_ITERATIONS}. */
    private record SizeItem(int size, int latency, int bw, int collective) {
        static SizeItem parse(String item) {
            String[] f = item.split(":");
            return new SizeItem(Integer.parseInt(f[0]), Integer.parseInt(f[1]), Integer.parseInt(f[2]),
                Integer.parseInt(f[3]));
        }
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        if (args.length != 7) {
            System.err.println("usage: OsuRank TESTS SIZES OVERLAP_SIZE COMPUTE_US WINDOW WARMUP BUFFERS");
            MPI.COMM_WORLD.abort(2);
        }
        List<String> tests = List.of(args[0].split(","));
        List<SizeItem> sizes = Stream.of(args[1].split(",")).map(SizeItem::parse).toList();
        int overlapSize = Integer.parseInt(args[2]);
        int window = Integer.parseInt(args[4]);
        int largest = overlapSize;
        for (SizeItem item : sizes) {
            largest = Math.max(largest, item.size());
        }
        OsuRank me = new OsuRank(MPI.COMM_WORLD.getRank(), MPI.COMM_WORLD.getSize(), largest, window,
            args[6].equals("direct"));
        List<String> collectives = Stream.of("bcast", "reduce", "allreduce", "alltoall").filter(tests::contains).toList();
        // One test after another, as the OSU programs are one program a test: a rank's compiled
        // code follows what it runs, and each change of test costs some recompiling first (see
        // docs/performance-notes.md#mpi-warm-up).
        if (tests.contains("latency") || tests.contains("bw") || tests.contains("overlap")) {
            me.warmUp(Integer.parseInt(args[5]));
        }
        if (tests.contains("latency")) {
            for (SizeItem item : sizes) {
                me.latency(item.size(), item.latency());
            }
        }
        if (tests.contains("bw")) {
            me.warmUpWindows();
            for (SizeItem item : sizes) {
                if (item.size() > 0) {
                    me.bandwidth(item.size(), item.bw());
                }
            }
        }
        if (tests.contains("overlap")) {
            for (String item : args[3].split(",")) {
                String[] f = item.split(":");
                me.overlap(overlapSize, Integer.parseInt(f[0]), Integer.parseInt(f[1]));
            }
        }
        if (tests.contains("barrier")) {
            me.collective("barrier", 0, COLLECTIVE_WARMUP);
            me.warmUp("barrier", sizes);
            me.timed("barrier", 0, COLLECTIVE_WARMUP);
        }
        for (String c : collectives) {
            me.collective(c, 8, COLLECTIVE_WARMUP);
            me.warmUp(c, sizes);
            for (SizeItem item : sizes) {
                if (item.size() >= 8) {
                    me.timed(c, item.size(), item.collective());
                }
            }
        }
        MPI.Finalize();
    }

    /**
     * 8-byte ping-pongs: {@code iterations}, then {@linkplain #settle settles} them in windows of
     * {@link #WARMUP_WINDOW_NANOS}, after at least {@link #WARMUP_MIN_NANOS} and at most
     * {@link #WARMUP_MAX_NANOS} in all. On two cores two busy ranks leave the compiler threads
     * little time, so a fixed count can end while the paths are still being compiled, and the
     * figures then measure the compiler.
     */
    private void warmUp(int iterations) throws MPIException {
        long start = System.nanoTime();
        pingpong(8, iterations);
        settle(() -> pingpong(8, WARMUP_BATCH), WARMUP_WINDOW_NANOS, start + WARMUP_MIN_NANOS,
            start + WARMUP_MAX_NANOS);
    }

    /**
     * Windows of 8-byte non-blocking sends until they settle as the ping-pongs' warm-up does: they
     * take paths (non-blocking requests, waiting for all) the ping-pongs never compiled.
     */
    private void warmUpWindows() throws MPIException {
        long start = System.nanoTime();
        settle(() -> windows(8, WARMUP_BATCH / 100), WARMUP_WINDOW_NANOS, start + WARMUP_MIN_NANOS,
            start + WARMUP_MAX_NANOS);
    }

    /**
     * Calls collective {@code test} at each size of the run in turn, a barrier after each call
     * (barriers back to back), until they settle as the ping-pongs' warm-up does. Every size, not
     * only the smallest: a large call takes paths a small one never runs (a reduce-scatter, a
     * pipeline), and four ranks on two cores took seconds to compile them once timing had begun
     * (docs/performance-notes.md#mpi-direct-collectives).
     */
    private void warmUp(String test, List<SizeItem> sizes) throws MPIException {
        long start = System.nanoTime();
        settle(() -> {
            for (SizeItem item : sizes) {
                calls(test, Math.max(8, item.size()), Math.max(1, item.collective() / 20));
            }
        }, WARMUP_WINDOW_NANOS, start + WARMUP_MIN_NANOS, start + WARMUP_MAX_NANOS);
    }

    /**
     * Runs {@code batch}, untimed, until a window of at least {@code windowNanos} in which no
     * rank's JIT compiler threads used CPU took as long per batch as the window before it, within
     * {@link #STEADY}; not before {@code notBefore} and not after {@code notAfter}
     * ({@link System#nanoTime()} of rank 0, which decides). A quiet compiler alone can be a lull
     * between compilations, hence the rate too. The ranks agree by point-to-point messages with
     * rank 0, not a collective: code compiled while collectives ran between the batches was
     * compiled again, for some hundred milliseconds, once the ping-pongs ran alone (see
     * docs/performance-notes.md#mpi-warm-up).
     */
    private void settle(Work batch, long windowNanos, long notBefore, long notAfter) throws MPIException {
        long[] word = new long[1]; // a rank's compiler ran in this window; then rank 0's verdict
        long windowStart = System.nanoTime();
        long ticks = jit.ticks();
        long batches = 0;
        double before = 0; // the last window's nanoseconds per batch
        while (true) {
            batch.run();
            batches++;
            if (rank != 0) {
                word[0] = jit.ticks() != ticks ? 1 : 0;
                MPI.COMM_WORLD.send(word, 1, MPI.LONG, 0, SETTLE);
                MPI.COMM_WORLD.recv(word, 1, MPI.LONG, 0, SETTLE);
                if (word[0] == SETTLED) {
                    return;
                }
                if (word[0] == NEXT_WINDOW) {
                    ticks = jit.ticks();
                }
                continue;
            }
            boolean compiled = jit.ticks() != ticks;
            for (int r = 1; r < size; r++) {
                MPI.COMM_WORLD.recv(word, 1, MPI.LONG, r, SETTLE);
                compiled |= word[0] == 1;
            }
            long now = System.nanoTime();
            word[0] = SAME_WINDOW;
            if (now - notAfter >= 0) {
                word[0] = SETTLED;
            } else if (now - windowStart >= windowNanos) {
                double perBatch = (double) (now - windowStart) / batches;
                boolean steady = Math.abs(perBatch - before) <= STEADY * before;
                word[0] = !compiled && steady && now - notBefore >= 0 ? SETTLED : NEXT_WINDOW;
                before = perBatch;
                windowStart = now;
                batches = 0;
                ticks = jit.ticks();
            }
            for (int r = 1; r < size; r++) {
                MPI.COMM_WORLD.send(word, 1, MPI.LONG, r, SETTLE);
            }
            if (word[0] == SETTLED) {
                return;
            }
        }
    }

    /** Some calls of MPI, as {@link #settle} runs them. */
    @FunctionalInterface
    private interface Work {
        void run() throws MPIException;
    }

    private void pingpong(int size, int iterations) throws MPIException {
        Object data = directOnly ? direct : array;
        for (int i = 0; i < iterations; i++) {
            if (rank == 0) {
                MPI.COMM_WORLD.send(data, size, MPI.BYTE, 1, TAG);
                MPI.COMM_WORLD.recv(data, size, MPI.BYTE, 1, TAG);
            } else {
                MPI.COMM_WORLD.recv(data, size, MPI.BYTE, 0, TAG);
                MPI.COMM_WORLD.send(data, size, MPI.BYTE, 0, TAG);
            }
        }
    }

    /**
     * Calls collective {@code test} {@code n} times, a barrier after each. The same code whether
     * timed or not: a branch the untimed calls never took would be compiled as a trap, and the
     * first timed call would compile the loop again.
     *
     * @return the nanoseconds the calls took, barriers left out
     */
    private long calls(String test, int bytes, int n) throws MPIException {
        long total = 0;
        for (int i = 0; i < n; i++) {
            long start = System.nanoTime();
            call(test, bytes);
            total += System.nanoTime() - start;
            if (!test.equals("barrier")) {
                MPI.COMM_WORLD.barrier();
            }
        }
        return total;
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
            case "bcast" -> MPI.COMM_WORLD.bcast(directOnly ? direct : array, bytes, MPI.BYTE, 0);
            case "reduce" -> {
                if (directOnly) {
                    MPI.COMM_WORLD.reduce(directDoubles(), directSums, bytes / 8, MPI.DOUBLE, MPI.SUM, 0);
                } else {
                    MPI.COMM_WORLD.reduce(doubles(bytes), sums, bytes / 8, MPI.DOUBLE, MPI.SUM, 0);
                }
            }
            case "allreduce" -> {
                if (directOnly) {
                    MPI.COMM_WORLD.allReduce(directDoubles(), directSums, bytes / 8, MPI.DOUBLE, MPI.SUM);
                } else {
                    MPI.COMM_WORLD.allReduce(doubles(bytes), sums, bytes / 8, MPI.DOUBLE, MPI.SUM);
                }
            }
            default -> {
                if (directOnly) {
                    if (directSendAll == null) {
                        directSendAll = MPI.newByteBuffer(largest * size);
                        directRecvAll = MPI.newByteBuffer(largest * size);
                    }
                    MPI.COMM_WORLD.allToAll(directSendAll, bytes, MPI.BYTE, directRecvAll, bytes, MPI.BYTE);
                    return;
                }
                if (sendAll.length < bytes * size) {
                    sendAll = new byte[largest * size];
                    recvAll = new byte[largest * size];
                }
                MPI.COMM_WORLD.allToAll(sendAll, bytes, MPI.BYTE, recvAll, bytes, MPI.BYTE);
            }
        }
    }

    /** @return direct doubles for the largest size, with as many sums */
    private DoubleBuffer directDoubles() {
        if (directDoubles == null) {
            directDoubles = MPI.newDoubleBuffer(largest / 8 + 1);
            directSums = MPI.newDoubleBuffer(largest / 8 + 1);
        }
        return directDoubles;
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
     * times each call, with a barrier between calls, after a tenth more untimed, which Polylink's
     * ranks repeat until they {@linkplain #settle settle}; rank 0 prints the ranks' average time per
     * call as {@code result TEST_RANKS SIZE 0 US}.
     */
    private void timed(String test, int bytes, int iterations) throws MPIException {
        int skip = iterations / 10 + 1;
        long now = System.nanoTime();
        settle(() -> calls(test, bytes, skip), SIZE_WINDOW_NANOS, now, now + SIZE_SETTLE_NANOS);
        long total = calls(test, bytes, iterations);
        double[] mine = {total / 1e3 / iterations};
        double[] all = new double[1];
        MPI.COMM_WORLD.reduce(mine, all, 1, MPI.DOUBLE, MPI.SUM, 0);
        if (rank == 0) {
            print(test + "_" + size, bytes, 0, all[0] / size);
        }
    }

    /**
     * Times {@code iterations} ping-pongs of {@code size} bytes once the untimed ones settled. No
     * barrier between: the untimed ones leave the ranks in step, and a collective there would
     * change what the JIT compiled for them.
     */
    private void latency(int size, int iterations) throws MPIException {
        long now = System.nanoTime();
        settle(() -> pingpong(size, iterations / 10 + 1), SIZE_WINDOW_NANOS, now, now + SIZE_SETTLE_NANOS);
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
        long now = System.nanoTime();
        settle(() -> windows(size, iterations / 10 + 1), SIZE_WINDOW_NANOS, now, now + SIZE_SETTLE_NANOS);
        MPI.COMM_WORLD.barrier();
        long start = System.nanoTime();
        windows(size, iterations);
        double seconds = (System.nanoTime() - start) / 1e9;
        if (rank == 0) {
            print("bw", size, 0, (double) size * requests.length * iterations / seconds / 1e6);
        }
    }

    /**
     * Times {@code iterations} overlap iterations with {@code micros} of computation. The first
     * call settles the experiment first, with and without computation: the non-blocking path of a
     * large message, and its progress on the methods' threads while the application computes, are
     * code the ping-pongs before never ran, and twenty iterations of it measured the JIT compiling
     * it, at 1–2 ms a message where a settled one takes some 55 µs.
     */
    private void overlap(int size, int micros, int iterations) throws MPIException {
        if (!overlapSettled) {
            long now = System.nanoTime();
            settle(() -> {
                overlapWaits(size, 0, 4);
                overlapWaits(size, OVERLAP_SETTLE_COMPUTE_US, 4);
            }, SIZE_WINDOW_NANOS, now, now + OVERLAP_SETTLE_NANOS);
            overlapSettled = true;
        }
        long waited = overlapWaits(size, micros, iterations);
        print(rank == 0 ? "overlap_send_wait" : "overlap_recv_wait", size, micros, waited / 1e3 / iterations);
    }

    /** @return the nanoseconds spent in wait over {@code iterations} overlap iterations */
    private long overlapWaits(int size, int micros, int iterations) throws MPIException {
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
        return waited;
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
