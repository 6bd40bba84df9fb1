package io.polylink.mpi.job;

/**
 * How one rank of a {@link Job} ended.
 *
 * @param rank the rank
 * @param failure what its {@code main} threw, or {@code null}
 * @param exitStatus the status it asked its host to exit with ({@code MPI_Abort}, a fatal
 *     error), or {@code null}
 * @param out what it wrote to {@code System.out}
 * @param err what it wrote to {@code System.err}
 */
public record RankResult(int rank, Throwable failure, Integer exitStatus, String out, String err) {

    /** @return whether {@code main} returned and no exit was asked for */
    public boolean succeeded() {
        return failure == null && exitStatus == null;
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("rank " + rank + ": ");
        if (succeeded()) {
            s.append("ok");
        }
        if (exitStatus != null) {
            s.append("exit ").append(exitStatus).append(' ');
        }
        if (failure != null) {
            java.io.StringWriter trace = new java.io.StringWriter();
            failure.printStackTrace(new java.io.PrintWriter(trace));
            s.append(trace);
        }
        if (!out.isEmpty()) {
            s.append("\n  out: ").append(out.strip().replace("\n", "\n       "));
        }
        if (!err.isEmpty()) {
            s.append("\n  err: ").append(err.strip().replace("\n", "\n       "));
        }
        return s.toString();
    }
}
