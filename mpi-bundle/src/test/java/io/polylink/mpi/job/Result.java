package io.polylink.mpi.job;

import java.util.List;
import java.util.stream.Collectors;

/** How every rank of a {@link Job} ended. */
public record Result(List<RankResult> ranks) {

    /** @throws AssertionError naming each rank that failed, with what it threw and wrote */
    public Result assertSucceeded() {
        List<RankResult> failed = ranks.stream().filter(r -> !r.succeeded()).toList();
        if (!failed.isEmpty()) {
            throw new AssertionError(failed.size() + " of " + ranks.size() + " ranks failed:\n"
                + failed.stream().map(RankResult::toString).collect(Collectors.joining("\n")));
        }
        return this;
    }

    /** @return what {@code rank} wrote to {@code System.out} */
    public String out(int rank) {
        return rank(rank).out();
    }

    /** @return how {@code rank} ended */
    public RankResult rank(int rank) {
        return ranks.stream().filter(r -> r.rank() == rank).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("rank " + rank + " was not started"));
    }

    @Override
    public String toString() {
        return ranks.stream().map(RankResult::toString).collect(Collectors.joining("\n"));
    }
}
