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
import java.util.HashSet;
import java.util.Set;

/**
 * Runs the context's policy over one target's table and turns its choice into a route. An entry
 * whose connection cannot be made counts as refused, with the connect error as reason, and the
 * policy runs again without it: a peer that is down on one method may be up on the next.
 */
final class Selector {

    /** The outcome: the explanation, and the route if one was built. */
    record Selection(Explanation explanation, Route route) {}

    private Selector() {}

    /**
     * @param connect whether to build a route (and so open connections), or only explain
     * @throws NoApplicableMethodException if {@code connect} and no entry could be used
     */
    static Selection select(ContextRuntime runtime, ContextId target, int endpoint, DescriptorTable table,
                            LinkOptions options, boolean connect) {
        int generation = runtime.generation();
        Request request = new Request(runtime, target, endpoint, table, options);
        SelectionPolicy policy = runtime.policy();
        for (int attempt = 0; attempt <= table.size(); attempt++) {
            Explanation explanation = policy.select(request);
            var chosen = explanation.chosen();
            if (chosen.isPresent() && !request.assess(chosen.get().index()).usable()) {
                throw new PolylinkException("selection policy " + policy.name() + " chose entry "
                    + (chosen.get().index() + 1) + " (" + chosen.get().descriptor().stack()
                    + "), which is not usable: " + request.assess(chosen.get().index()).reason());
            }
            if (!connect) {
                return new Selection(explanation, null);
            }
            if (chosen.isEmpty()) {
                throw new NoApplicableMethodException(explanation);
            }
            try {
                Route route = runtime.route(target, endpoint, chosen.get().descriptor(), options, generation);
                return new Selection(explanation, route);
            } catch (LinkException e) {
                request.refuse(chosen.get().index(), e.getMessage());
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
