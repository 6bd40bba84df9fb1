package io.polylink.plogp;

import io.polylink.Descriptor;
import io.polylink.spi.PeerLocation;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

/**
 * The P-LogP model of one kind of link: two contexts {@code location} apart, over {@code stack}.
 * As P-LogP defines it, a message of {@code m} bytes arrives {@link #messageTime L + g(m)} after
 * its send started, a stream of them takes {@code g(m)} each, and the sender and the receiver
 * spend {@code os(m)} and {@code or(m)} of their own time on each. Between the measured sizes the
 * functions are linear; beyond the largest they go on as between the last two, since the cost of
 * a large message grows with its bytes; below the smallest they keep its value.
 *
 * @param location how far apart the two contexts run: on one host, on two hosts of a site, or on
 *     two sites
 * @param stack the method stack, such as {@code shm}, {@code tcp} or {@code lz4/tcp}
 * @param latency {@code L}, in microseconds: {@code RTT(0) / 2 - g(0)}
 * @param sizes the parameters at each measured size, sizes increasing
 * @param measured when the measurement ended
 * @param between the two contexts' hosts, for people reading the file
 */
public record LinkModel(PeerLocation location, String stack, double latency, List<SizeParameters> sizes,
        Instant measured, String between) {

    /** The most sizes one model holds: every power of two from 1 B to 2 GiB, and 0. */
    public static final int MAX_SIZES = 64;

    /** The longest {@code between}. */
    public static final int MAX_BETWEEN = 200;

    /**
     * Copies {@code sizes}.
     *
     * @throws IllegalArgumentException naming what is wrong: a location of one context, a stack
     *     that is not one, a latency that is not a time, no sizes or too many, sizes not increasing,
     *     a {@code between} with a tab or a line break
     */
    public LinkModel {
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(measured, "measured");
        if (location == PeerLocation.SAME_CONTEXT) {
            throw new IllegalArgumentException("a link model is between two contexts, not within one");
        }
        checkStack(stack);
        SizeParameters.check("L", latency);
        sizes = List.copyOf(sizes);
        if (sizes.isEmpty() || sizes.size() > MAX_SIZES) {
            throw new IllegalArgumentException("a link model holds 1 to " + MAX_SIZES + " sizes, not " + sizes.size());
        }
        for (int i = 1; i < sizes.size(); i++) {
            if (sizes.get(i).bytes() <= sizes.get(i - 1).bytes()) {
                throw new IllegalArgumentException("the sizes of a link model must increase: " + sizes.get(i).bytes()
                    + " B comes after " + sizes.get(i - 1).bytes() + " B");
            }
        }
        Objects.requireNonNull(between, "between");
        if (between.length() > MAX_BETWEEN || between.chars().anyMatch(c -> c == '\t' || c == '\n' || c == '\r')) {
            throw new IllegalArgumentException("'between' is one line of at most " + MAX_BETWEEN
                + " characters without tabs: " + between);
        }
    }

    /** A stack as a descriptor takes one: transforms joined by '+', '/', a method; or a method alone. */
    static void checkStack(String stack) {
        int slash = stack == null ? -1 : stack.lastIndexOf('/');
        if (stack == null || stack.length() > Descriptor.MAX_STACK_LENGTH
            || !Descriptor.validName(stack.substring(slash + 1))
            || slash >= 0 && !Arrays.stream(stack.substring(0, slash).split("\\+", -1)).allMatch(Descriptor::validName)) {
            throw new IllegalArgumentException("'" + stack + "' is not a method stack; write a method (shm, tcp) or"
                + " transforms and a method (lz4/tcp, lz4+aead/tcp)");
        }
    }

    /** @return {@code os(m)} in microseconds */
    public double sendOverhead(long m) {
        return at(m, SizeParameters::sendOverhead);
    }

    /** @return {@code or(m)} in microseconds */
    public double receiveOverhead(long m) {
        return at(m, SizeParameters::receiveOverhead);
    }

    /** @return {@code g(m)} in microseconds */
    public double gap(long m) {
        return at(m, SizeParameters::gap);
    }

    /** @return {@code RTT(m)}, a message there and one of the same size back, in microseconds */
    public double roundTrip(long m) {
        return at(m, SizeParameters::roundTrip);
    }

    /** @return the time from the start of a message's send to its arrival, {@code L + g(m)}, in microseconds */
    public double messageTime(long m) {
        return latency + gap(m);
    }

    private double at(long m, ToDoubleFunction<SizeParameters> parameter) {
        if (m < 0) {
            throw new IllegalArgumentException("a message size cannot be negative: " + m);
        }
        int n = sizes.size();
        if (n == 1 || m <= sizes.get(0).bytes()) {
            return parameter.applyAsDouble(sizes.get(0));
        }
        int upper = 1;
        while (upper < n - 1 && sizes.get(upper).bytes() < m) {
            upper++;
        }
        SizeParameters a = sizes.get(upper - 1);
        SizeParameters b = sizes.get(upper);
        double ya = parameter.applyAsDouble(a);
        double yb = parameter.applyAsDouble(b);
        double y = ya + (yb - ya) * (m - a.bytes()) / (double) (b.bytes() - a.bytes());
        return Math.max(0, y); // a fall between the last two sizes must not run below nothing
    }
}
