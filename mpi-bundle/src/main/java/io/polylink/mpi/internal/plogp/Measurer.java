package io.polylink.mpi.internal.plogp;

import io.polylink.plogp.LinkModel;
import io.polylink.plogp.SizeParameters;
import io.polylink.spi.PeerLocation;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Rank 0 of a measurement: commands the mirror, times, and makes the model of what it timed.
 * See {@link io.polylink.mpi.plogp.PLogPMeasurement} for the procedure.
 */
final class Measurer {

    private static final int MIRROR = 1;
    /** The rounds over every size. */
    private static final int ROUNDS = 3;
    /** The fewest samples of a parameter in each round. */
    private static final int MIN_SAMPLES = 3;
    private static final int MIN_GAPS = 2;
    private static final int MAX_GAPS = 64;
    private static final int MAX_SAMPLES = 100_000;
    private static final int MAX_BATCH = 4096;
    private static final long MAX_STREAM = 1 << 20;
    /** How long the measurer waits for a message the mirror was asked for before it gives up. */
    private static final long ARRIVAL_NANOS = 60_000_000_000L;

    private final Intracomm pair;
    private final long[] sizes;
    private final long timeNanos;
    private final long warmUpNanos;
    private final ByteBuffer out;
    private final ByteBuffer in;
    private final byte[] none = new byte[0];

    Measurer(Intracomm pair, long[] sizes, long timeNanos, long warmUpNanos) {
        this.pair = pair;
        this.sizes = sizes;
        this.timeNanos = timeNanos;
        this.warmUpNanos = warmUpNanos;
        long largest = sizes[sizes.length - 1];
        this.out = MPI.newByteBuffer((int) Math.max(1, largest));
        this.in = MPI.newByteBuffer((int) Math.max(1, largest));
    }

    LinkModel run(PeerLocation location, String stack, String between) throws MPIException {
        warmUp();
        int k = sizes.length;
        Samples[][] taken = new Samples[k][4];
        long[] streams = new long[k];
        // Rounds over every size, so that a stall of some milliseconds (a compilation, a collection)
        // falls on a few of a size's samples rather than on all of them.
        for (int round = 0; round < ROUNDS; round++) {
            for (int i = 0; i < k; i++) {
                long m = sizes[i];
                if (round == 0) {
                    java.util.Arrays.setAll(taken[i], p -> new Samples());
                    streams[i] = streamLength(m);
                }
                take(taken[i][0], Protocol.ROUND_TRIPS, m);
                take(taken[i][1], Protocol.SENDS, m);
                take(taken[i][2], Protocol.RECEIVES, m);
                gaps(taken[i][3], m, streams[i]);
            }
        }
        command(Protocol.END, 0, 0);
        List<SizeParameters> measured = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            double os = taken[i][1].median();
            double or = taken[i][2].median();
            // A stream cannot go faster than either end's work per message: P-LogP's g(m) is at least
            // os(m) and or(m). Where noise makes the difference of two streams smaller, that holds it.
            double g = Math.max(taken[i][3].median(), Math.max(os, or));
            measured.add(new SizeParameters(sizes[i], os, or, g, taken[i][0].median()));
        }
        SizeParameters zero = measured.get(0);
        double latency = Math.max(0, zero.roundTrip() / 2 - zero.gap());
        return new LinkModel(location, stack, latency, measured, Instant.now(), between);
    }

    /** Round trips and streams at every size, so that the JIT has compiled what the measurement runs. */
    private void warmUp() throws MPIException {
        long end = System.nanoTime() + warmUpNanos;
        while (System.nanoTime() - end < 0) {
            for (long m : sizes) {
                batch(Protocol.ROUND_TRIPS, m, 4);
                stream(m, 4);
            }
        }
    }

    /** Adds to {@code samples} what repetitions of {@code what} at {@code m} take in a round's share of the time. */
    private void take(Samples samples, long what, long m) throws MPIException {
        long share = timeNanos / ROUNDS;
        long start = System.nanoTime();
        int taken = 0;
        int count = 2;
        while (taken < MIN_SAMPLES || System.nanoTime() - start < share && samples.size() < MAX_SAMPLES) {
            long batchStart = System.nanoTime();
            double[] micros = batch(what, m, count);
            samples.add(micros);
            taken += micros.length;
            // The next batch about fills the time left, so that a slow size does not overrun it by much.
            long each = Math.max(1, (System.nanoTime() - batchStart) / count);
            long left = share - (System.nanoTime() - start);
            count = (int) Math.max(1, Math.min(MAX_BATCH, Math.min(MAX_SAMPLES - samples.size(), left / each)));
        }
    }

    /** @return how many messages of {@code m} bytes a stream needs to take a tenth of the time per parameter */
    private long streamLength(long m) throws MPIException {
        long n = 4;
        while (stream(m, n) < timeNanos / 10 && 2 * n <= MAX_STREAM) {
            n *= 2;
        }
        return n;
    }

    /** Adds to {@code samples} estimates of {@code g(m)} in microseconds, from streams of {@code n} and {@code 2n} */
    private void gaps(Samples samples, long m, long n) throws MPIException {
        long share = 2 * timeNanos / ROUNDS;
        long start = System.nanoTime();
        int taken = 0;
        while (taken < MIN_GAPS || System.nanoTime() - start < share && taken < MAX_GAPS) {
            long once = stream(m, n);
            long twice = stream(m, 2 * n);
            samples.add(new double[] {(twice - once) / 1000.0 / n});
            taken++;
        }
    }

    /** @return the microseconds each of {@code count} repetitions of {@code what} took at {@code m} */
    private double[] batch(long what, long m, int count) throws MPIException {
        int bytes = (int) m;
        double[] micros = new double[count];
        command(what, m, count);
        if (what == Protocol.ROUND_TRIPS) {
            for (int i = 0; i < count; i++) {
                long t0 = System.nanoTime();
                pair.send(out, bytes, MPI.BYTE, MIRROR, Protocol.DATA);
                pair.recv(in, bytes, MPI.BYTE, MIRROR, Protocol.DATA);
                micros[i] = (System.nanoTime() - t0) / 1000.0;
            }
        } else if (what == Protocol.SENDS) {
            for (int i = 0; i < count; i++) {
                pair.recv(none, 0, MPI.BYTE, MIRROR, Protocol.ACK);
                long t0 = System.nanoTime();
                pair.iSend(out, bytes, MPI.BYTE, MIRROR, Protocol.DATA).waitFor();
                micros[i] = (System.nanoTime() - t0) / 1000.0;
            }
            pair.recv(none, 0, MPI.BYTE, MIRROR, Protocol.ACK);
        } else {
            for (int i = 0; i < count; i++) {
                pair.send(none, 0, MPI.BYTE, MIRROR, Protocol.ACK);
                awaitArrival(m);
                long t0 = System.nanoTime();
                pair.recv(in, bytes, MPI.BYTE, MIRROR, Protocol.DATA);
                micros[i] = (System.nanoTime() - t0) / 1000.0;
            }
        }
        return micros;
    }

    /** @return nanoseconds from the first of {@code n} back-to-back sends of {@code m} bytes to the mirror's answer */
    private long stream(long m, long n) throws MPIException {
        int bytes = (int) m;
        int window = Protocol.window(m);
        Request[] requests = new Request[window];
        command(Protocol.STREAM, m, n);
        long t0 = System.nanoTime();
        for (long sent = 0; sent < n; ) {
            int burst = (int) Math.min(window, n - sent);
            for (int j = 0; j < burst; j++) {
                requests[j] = pair.iSend(out, bytes, MPI.BYTE, MIRROR, Protocol.DATA);
            }
            Request.waitAll(burst == window ? requests : Arrays.copyOf(requests, burst));
            sent += burst;
        }
        pair.recv(none, 0, MPI.BYTE, MIRROR, Protocol.ACK);
        return System.nanoTime() - t0;
    }

    private void awaitArrival(long m) throws MPIException {
        long deadline = System.nanoTime() + ARRIVAL_NANOS;
        while (pair.iProbe(MIRROR, Protocol.DATA) == null) {
            if (System.nanoTime() - deadline > 0) {
                throw new MPIException("P-LogP: the mirror's message of " + m + " bytes did not arrive within "
                    + ARRIVAL_NANOS / 1_000_000_000 + " s");
            }
            Thread.onSpinWait();
        }
    }

    private void command(long what, long m, long count) throws MPIException {
        pair.send(new long[] {what, m, count}, 3, MPI.LONG, MIRROR, Protocol.COMMAND);
    }

    /** Samples of one parameter at one size, in microseconds. */
    private static final class Samples {

        private double[] values = new double[64];
        private int size;

        void add(double[] more) {
            if (size + more.length > values.length) {
                values = Arrays.copyOf(values, Math.max(values.length * 2, size + more.length));
            }
            System.arraycopy(more, 0, values, size, more.length);
            size += more.length;
        }

        int size() {
            return size;
        }

        double median() {
            double[] sorted = Arrays.copyOf(values, size);
            Arrays.sort(sorted);
            return size % 2 == 1 ? sorted[size / 2] : (sorted[size / 2 - 1] + sorted[size / 2]) / 2;
        }
    }
}
