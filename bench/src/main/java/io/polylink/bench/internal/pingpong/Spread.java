package io.polylink.bench.internal.pingpong;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;

/**
 * One figure over the runs of a repeated pingpong: each run gives it from its own results (a
 * ratio divides by a baseline of the same run), and the median stands for them all, beside the
 * range. On this class of machine a run can land 3x off another; one run's verdict says little.
 *
 * @param values the figure of each run that had it, ascending
 */
record Spread(double[] values) {

    /** @return the figure over {@code runs}; empty if no run had it */
    static Optional<Spread> over(List<List<SizeResult>> runs, Function<List<SizeResult>, OptionalDouble> figure) {
        double[] values = runs.stream().map(figure).filter(OptionalDouble::isPresent)
            .mapToDouble(OptionalDouble::getAsDouble).sorted().toArray();
        return values.length == 0 ? Optional.empty() : Optional.of(new Spread(values));
    }

    /** @return the middle value; of an even count, the mean of the middle two */
    double median() {
        int n = values.length;
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }

    double min() {
        return values[0];
    }

    double max() {
        return values[values.length - 1];
    }

    int runs() {
        return values.length;
    }

    /** @return in how many runs the figure was at most {@code bound} (or, if not {@code atMost}, at least) */
    int within(double bound, boolean atMost) {
        return (int) Arrays.stream(values).filter(v -> atMost ? v <= bound : v >= bound).count();
    }
}
