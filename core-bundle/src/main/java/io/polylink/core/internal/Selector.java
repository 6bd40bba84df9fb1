package io.polylink.core.internal;

import io.polylink.ContextId;
import io.polylink.Descriptor;
import io.polylink.DescriptorTable;
import io.polylink.Explanation;
import io.polylink.LinkException;
import io.polylink.NoApplicableMethodException;
import io.polylink.PolylinkException;
import io.polylink.Verdict;
import io.polylink.spi.Applicability;
import io.polylink.spi.CommunicationMethod;
import io.polylink.spi.SelectionPolicy;
import io.polylink.spi.SelectionRequest;
import java.util.BitSet;
import java.util.HashSet;
import java.util.Set;

/**
 * Runs the context's policy over one target's table and turns its choice into a route. An entry
 * whose connection cannot be made counts as refused, with the connect error as reason, and the
 * policy runs again without it: a peer that is down on one method may be up on the next.
 */
final class Selector {

    /**
     * The outcome.
     *
     * @param explanation what the policy made of each entry
     * @param value what the binder made of the chosen entry, {@code null} when only explaining
     * @param connectFailed the entries refused because the binder failed on them
     */
    record Selection<T>(Explanation explanation, T value, BitSet connectFailed) {

        int chosenIndex() {
            return explanation.chosen().map(Explanation.Entry::index).orElse(-1);
        }
    }

    /** Turns a chosen entry into something to send on, opening connections as needed. */
    @FunctionalInterface
    interface Binder<T> {
        /** @throws LinkException to refuse the entry and let the policy choose again */
        T bind(Descriptor chosen);
    }

    private Selector() {}

    /** Explains what selection would choose now, without connecting. */
    static Explanation explain(ContextRuntime runtime, ContextId target, int endpoint, DescriptorTable table,
                               LinkOptions options) {
        return select(runtime, target, endpoint, table, options, null).explanation();
    }

    /**
     * @param binder what to make of the chosen entry, or {@code null} to only explain
     * @throws NoApplicableMethodException if there is a binder and no entry could be used
     */
    static <T> Selection<T> select(ContextRuntime runtime, ContextId target, int endpoint, DescriptorTable table,
                                   LinkOptions options, Binder<T> binder) {
        Request request = new Request(runtime, target, endpoint, table, options);
        BitSet connectFailed = new BitSet();
        SelectionPolicy policy = runtime.policy();
        for (int attempt = 0; attempt <= table.size(); attempt++) {
            Explanation explanation = policy.select(request);
            var chosen = explanation.chosen();
            if (chosen.isPresent() && !request.assess(chosen.get().index()).usable()) {
                throw new PolylinkException("selection policy " + policy.name() + " chose entry "
                    + (chosen.get().index() + 1) + " (" + chosen.get().descriptor().stack()
                    + "), which is not usable: " + request.assess(chosen.get().index()).reason());
            }
            if (binder == null) {
                return new Selection<>(explanation, null, connectFailed);
            }
            if (chosen.isEmpty()) {
                throw new NoApplicableMethodException(explanation);
            }
            try {
                return new Selection<>(explanation, binder.bind(chosen.get().descriptor()), connectFailed);
            } catch (LinkException e) {
                request.refuse(chosen.get().index(), e.getMessage());
                connectFailed.set(chosen.get().index());
            }
        }
        throw new IllegalStateException("selection did not settle in " + (table.size() + 1) + " rounds");
    }

    /** The core's assessment of each entry, computed once and kept for the selection. */
    private static final class Request implements SelectionRequest {
        private final ContextRuntime runtime;
        private final ContextId target;
        private final int endpoint;
        private final DescriptorTable table;
        private final LinkOptions options;
        private final Assessment[] assessed;

        Request(ContextRuntime runtime, ContextId target, int endpoint, DescriptorTable table,
                LinkOptions options) {
            this.runtime = runtime;
            this.target = target;
            this.endpoint = endpoint;
            this.table = table;
            this.options = options;
            this.assessed = new Assessment[table.size()];
        }

        @Override
        public ContextId target() {
            return target;
        }

        @Override
        public int endpoint() {
            return endpoint;
        }

        @Override
        public DescriptorTable table() {
            return table;
        }

        @Override
        public Assessment assess(int index) {
            if (assessed[index] == null) {
                assessed[index] = assessNow(table.get(index));
            }
            return assessed[index];
        }

        void refuse(int index, String reason) {
            assessed[index] = new Assessment(Verdict.REFUSED, reason);
        }

        private Assessment assessNow(Descriptor d) {
            Set<String> names = new HashSet<>(d.transforms());
            names.add(d.method());
            names.add(d.stack());
            for (String forbidden : options.forbidden()) {
                if (names.contains(forbidden)) {
                    return new Assessment(Verdict.EXCLUDED, forbidden + " is forbidden by this startpoint");
                }
            }
            if (options.pin() != null && !options.pin().equals(d.stack())) {
                return new Assessment(Verdict.EXCLUDED, "startpoint is pinned to " + options.pin());
            }
            CommunicationMethod method = runtime.method(d.method());
            if (method == null) {
                return new Assessment(Verdict.NOT_INSTALLED, "method " + d.method() + " is not installed here"
                    + runtime.missing(InstallOnDemand.METHOD, d.method()));
            }
            for (String transform : d.transforms()) {
                if (runtime.transform(transform) == null) {
                    return new Assessment(Verdict.NOT_INSTALLED,
                        "transform " + transform + " is not installed here"
                            + runtime.missing(InstallOnDemand.TRANSFORM, transform));
                }
            }
            Applicability a;
            try {
                a = method.applicable(target, d.address());
            } catch (RuntimeException e) {
                return new Assessment(Verdict.REFUSED, "method " + d.method() + " failed to assess "
                    + method.describe(d.address()) + ": " + e);
            }
            return new Assessment(a.applicable() ? Verdict.CHOSEN : Verdict.REFUSED, a.reason());
        }
    }
}
