package io.polylink.bench.internal.pingpong;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;

/**
 * One figure over the runs of a repeated benchmark: each run gives it from its own results (a
 * ratio divides by a baseline of the same run), and the median stands for them all, beside the
 * range. On this class of machine a run can land 3x off another; one run's verdict says little.
 *
 * @param values the figure of each run that had it, ascending
 */
public record Spread(double[] values) {

    /** @return the figure over {@code runs}, whatever a run is; empty if no run had it */
    public static <R> Optional<Spread> over(List<R> runs, Function<R, OptionalDouble> figure) {
        double[] values = runs.stream().map(figure).filter(OptionalDouble::isPresent)
            .mapToDouble(OptionalDouble::getAsDouble).sorted().toArray();
        return values.length == 0 ? Optional.empty() : Optional.of(new Spread(values));
    }

    /** @return the middle value; of an even count, the mean of the middle two */
    public double median() {
        int n = values.length;
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }

    public double min() {
        return values[0];
    }

    public double max() {
        return values[values.length - 1];
    }

    public int runs() {
        return values.length;
    }

    /** @return in how many runs the figure was at most {@code bound} (or, if not {@code atMost}, at least) */
    public int within(double bound, boolean atMost) {
        return (int) Arrays.stream(values).filter(v -> atMost ? v <= bound : v >= bound).count();
    }
}
