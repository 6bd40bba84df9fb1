package io.polylink.bench.internal.pingpong;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code pingpong --interleave}: every implementation's server and client up at once; per size,
 * each pair warms up in turn, then every run measures each pair in turn, the order reversed in
 * every other run (A B, B A, A B, ...). A run's figures are then seconds apart, where separate
 * processes run one after the other leave a minute between them: on a shared machine whose speed
 * changes every few seconds, a ratio within one run compares like with like.
 *
 * <p>While one pair is measured the others wait for their next step: the clients on stdin, the
 * servers for bytes (see {@link PingPongOptions#INTERLEAVABLE} for why only some implementations
 * qualify).
 */
final class Interleaved {

    /** @param runs per run, its results; @param failed whether an implementation failed and was dropped */
    record Outcome(List<List<SizeResult>> runs, boolean failed) {}

    private final PingPongOptions options;
    /** The pairs still in the run, in the order listed. */
    private final Map<String, PeerPair> pairs = new LinkedHashMap<>();
    private boolean failed;

    private Interleaved(PingPongOptions options) {
        this.options = options;
    }

    /** @param wait the clients' wait, as {@link PingPongOptions#waitOn} decided */
    static Outcome run(PingPongOptions options, String wait) throws InterruptedException {
        return new Interleaved(options).measure(wait);
    }

    private Outcome measure(String wait) throws InterruptedException {
        List<List<SizeResult>> runs = new ArrayList<>();
        for (int r = 0; r < options.repeat(); r++) {
            runs.add(new ArrayList<>());
        }
        try {
            for (String impl : options.impls()) {
                try {
                    pairs.put(impl, PeerPair.start(impl, options, wait, true, deadline()));
                } catch (Exception e) {
                    fail(impl, "could not start", e);
                }
            }
            for (int size : options.sizes()) {
                for (String impl : List.copyOf(pairs.keySet())) {
                    step(impl, ClientLoop.WARM + " " + size, null);
                }
                for (int r = 0; r < options.repeat(); r++) {
                    List<String> order = new ArrayList<>(pairs.keySet());
                    if (r % 2 == 1) {
                        Collections.reverse(order);
                    }
                    for (String impl : order) {
                        step(impl, ClientLoop.MEASURE + " " + size, runs.get(r));
                    }
                }
            }
        } finally {
            for (PeerPair pair : pairs.values()) {
                pair.close();
            }
        }
        return new Outcome(runs, failed);
    }

    /**
     * Has {@code impl}'s client take one step and waits for its answer; a pair that fails is
     * closed and left out of the rest of the run.
     *
     * @param into where a measurement's result goes; null for a warm-up
     */
    private void step(String impl, String step, List<SizeResult> into) throws InterruptedException {
        PeerPair pair = pairs.get(impl);
        try {
            pair.client.println(step);
            String answer = pair.nextAnswer(deadline());
            boolean expected = into == null ? answer.startsWith(ClientLoop.WARMED) : SizeResult.isLine(answer);
            if (!expected) {
                throw new IllegalStateException("its client answered '" + answer + "'");
            }
            if (into != null) {
                into.add(SizeResult.fromLine(answer));
            }
        } catch (Exception e) {
            pairs.remove(impl);
            fail(impl, "failed at '" + step + "'", e);
            pair.close();
        }
    }

    private void fail(String impl, String what, Exception e) {
        failed = true;
        System.err.println("pingpong: " + impl + " " + what + ": " + e.getMessage() + "; the run goes on without it");
    }

    /** @return when a step, or a pair's start, must be done by */
    private long deadline() {
        return System.nanoTime() + TimeUnit.SECONDS.toNanos(options.timeoutSeconds());
    }
}
