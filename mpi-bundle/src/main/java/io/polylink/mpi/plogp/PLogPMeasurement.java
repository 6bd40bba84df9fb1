package io.polylink.mpi.plogp;

import io.polylink.mpi.internal.plogp.Pair;
import io.polylink.plogp.LinkModel;
import java.time.Duration;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.LongStream;
import mpi.Intracomm;
import mpi.MPIException;

/**
 * Measures the P-LogP model of the link between two ranks of a communicator, over the stack that
 * communicator's links between them take (pin one with the {@code polylink.stack} info key), by
 * the procedure of MagPIe's P-LogP: at each message size {@code m}, and always at 0,
 *
 * <ul>
 *   <li>{@code os(m)}: from the start of an {@code iSend} of {@code m} bytes to its completion, the
 *       mirror's receive posted before it starts;
 *   <li>{@code or(m)}: a {@code recv} of {@code m} bytes that the mirror sent and that has arrived,
 *       as {@code iProbe} says;
 *   <li>{@code g(m)}: from streams of {@code n} and {@code 2n} back-to-back sends, each until the
 *       mirror acknowledges the last, as {@code (T(2n) - T(n)) / n}, so the stream's start and the
 *       acknowledgement cancel out; {@code n} grows until a stream takes a sizeable part of the
 *       time given;
 *   <li>{@code RTT(m)}: {@code m} bytes there and {@code m} back;
 *   <li>{@code L = RTT(0) / 2 - g(0)}, since P-LogP has a message arrive {@code L + g(m)} after its
 *       send started.
 * </ul>
 *
 * Each parameter is the median of its samples from three rounds over every size, each round taking
 * a third of the time given per parameter and size (and at least three samples, two pairs of
 * streams for the gap), so that a stall of some milliseconds (a compilation, a collection) falls
 * on a few of a size's samples rather than all of them. A warm-up at every size comes first, so
 * that the JIT has compiled the paths the measurement takes. Immutable and thread-safe.
 */
public final class PLogPMeasurement {

    /** Every power of two from 1 B to 4 MiB. */
    public static final List<Long> DEFAULT_SIZES = LongStream.rangeClosed(0, 22).map(i -> 1L << i).boxed().toList();

    /** The time each parameter is measured for at each size, unless told otherwise. */
    public static final Duration DEFAULT_TIME = Duration.ofMillis(40);

    /** The warm-up before a link's measurement, unless told otherwise. */
    public static final Duration DEFAULT_WARM_UP = Duration.ofSeconds(3);

    /** The largest message size measured. */
    public static final long MAX_SIZE = 256L << 20;

    private final long[] sizes;
    private final Duration time;
    private final Duration warmUp;

    /** Measures {@link #DEFAULT_SIZES} for {@link #DEFAULT_TIME} each after {@link #DEFAULT_WARM_UP}. */
    public PLogPMeasurement() {
        this(DEFAULT_SIZES, DEFAULT_TIME, DEFAULT_WARM_UP);
    }

    /**
     * @param sizes the message sizes, 0 to {@link #MAX_SIZE} bytes, at most
     *     {@link LinkModel#MAX_SIZES} - 1 of them; 0 is measured in any case
     * @param time how long each parameter is measured at each size, 1 ms to 1 min
     * @param warmUp how long the link is used at every size before the measurement, up to 10 min
     * @throws IllegalArgumentException naming what is out of range
     */
    public PLogPMeasurement(List<Long> sizes, Duration time, Duration warmUp) {
        TreeSet<Long> all = new TreeSet<>(sizes);
        all.add(0L);
        for (long m : all) {
            if (m < 0 || m > MAX_SIZE) {
                throw new IllegalArgumentException("a message size to measure is 0 to " + MAX_SIZE + " bytes, not " + m);
            }
        }
        if (all.size() > LinkModel.MAX_SIZES) {
            throw new IllegalArgumentException("at most " + (LinkModel.MAX_SIZES - 1) + " sizes besides 0, not "
                + (all.size() - 1));
        }
        if (time.compareTo(Duration.ofMillis(1)) < 0 || time.compareTo(Duration.ofMinutes(1)) > 0) {
            throw new IllegalArgumentException("the time per parameter and size is 1 ms to 1 min, not " + time);
        }
        if (warmUp.isNegative() || warmUp.compareTo(Duration.ofMinutes(10)) > 0) {
            throw new IllegalArgumentException("the warm-up is 0 to 10 min, not " + warmUp);
        }
        this.sizes = all.stream().mapToLong(Long::longValue).toArray();
        this.time = time;
        this.warmUp = warmUp;
    }

    /** @return the sizes measured, 0 first */
    public List<Long> sizes() {
        return LongStream.of(sizes).boxed().toList();
    }

    /**
     * Measures the link between {@code measurer} and {@code mirror}: collective over {@code comm},
     * every rank calling it with the same arguments. The two ranks spend about five times the
     * time per parameter at each size, and the warm-up.
     *
     * @param comm the communicator whose links between the two ranks are measured
     * @param measurer the rank that times
     * @param mirror the rank that answers
     * @return the model, at both ranks; {@code null} at every other rank
     * @throws IllegalArgumentException if the ranks are not two different ranks of {@code comm}
     * @throws MPIException if a message fails, or the mirror's stays away longer than a minute
     */
    public LinkModel measure(Intracomm comm, int measurer, int mirror) throws MPIException {
        return Pair.measure(comm, measurer, mirror, sizes, time.toNanos(), warmUp.toNanos());
    }
}
