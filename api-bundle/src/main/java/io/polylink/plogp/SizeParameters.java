package io.polylink.plogp;

/**
 * The parameters of a link measured at one message size, in microseconds.
 *
 * @param bytes the message size {@code m}
 * @param sendOverhead {@code os(m)}: from the start of a non-blocking send to its completion, the
 *     receiver waiting for the message
 * @param receiveOverhead {@code or(m)}: a receive of a message that has already arrived
 * @param gap {@code g(m)}: the time per message of a stream of back-to-back sends, at saturation
 * @param roundTrip {@code RTT(m)}: a message sent and the same size sent back
 */
public record SizeParameters(long bytes, double sendOverhead, double receiveOverhead, double gap,
        double roundTrip) {

    /** @throws IllegalArgumentException if the size is negative or a time negative or not finite */
    public SizeParameters {
        if (bytes < 0) {
            throw new IllegalArgumentException("a message size cannot be negative: " + bytes);
        }
        check("os", sendOverhead);
        check("or", receiveOverhead);
        check("g", gap);
        check("RTT", roundTrip);
    }

    static void check(String name, double micros) {
        if (!(micros >= 0) || Double.isInfinite(micros)) {
            throw new IllegalArgumentException(name + " must be a finite time of 0 µs or more, not " + micros);
        }
    }
}
