package io.polylink.core.internal.select;

import io.polylink.ContextId;
import io.polylink.Descriptor;
import io.polylink.DescriptorTable;
import io.polylink.Explanation;
import io.polylink.LinkException;
import io.polylink.NoApplicableMethodException;
import io.polylink.PolylinkException;
import io.polylink.Verdict;
import io.polylink.core.internal.registry.Installed;
import io.polylink.core.internal.wire.EncodedTable;
import io.polylink.core.internal.wire.Origin;
import io.polylink.spi.Applicability;
import io.polylink.spi.CommunicationMethod;
import io.polylink.spi.PeerLocation;
import io.polylink.spi.SelectionPolicy;
import io.polylink.spi.SelectionRequest;
import io.polylink.spi.SelectionRequest.Sizes;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashSet;
import java.util.Set;

/**
 * Runs the context's policy over one target's table and hands its choice to a binder, which
 * connects. An entry whose connection cannot be made counts as refused, with the connect error as
 * reason, and the policy runs again without it: a peer that is down on one method may be up on
 * the next. An entry this context does not accept for the target (the stacks it requires, by where
 * the target's table says it runs) is refused before any connection is made, so no reply goes out
 * on a stack the context would refuse to receive on. Runs on the thread that binds a flow (a
 * sender, or a mover) or explains a startpoint.
 */
public final class StackSelector {

    /**
     * The outcome.
     *
     * @param explanation what the policy made of each entry
     * @param value what the binder made of the chosen entry, {@code null} when only explaining
     * @param connectFailed the entries refused because the binder failed on them
     */
    public record Selection<T>(Explanation explanation, T value, BitSet connectFailed) {

        /** @return the index of the chosen entry, or -1 */
        public int chosenIndex() {
            return explanation.chosen().map(Explanation.Entry::index).orElse(-1);
        }
    }

    /** Turns a chosen entry into something to send on, opening connections as needed. */
    @FunctionalInterface
    public interface Binder<T> {
        /** @throws LinkException to refuse the entry and let the policy choose again */
        T bind(Descriptor chosen);
    }

    private final Installed installed;
    private volatile SelectionPolicy policy = FirstApplicablePolicy.INSTANCE;
    private volatile InstallOnDemand onDemand = InstallOnDemand.NONE;

    /** @param installed what is installed here: the entries selection may choose */
    public StackSelector(Installed installed) {
        this.installed = installed;
    }

    /** Selects by {@code policy} from now on: every link selects again on its next send. */
    public synchronized void policy(SelectionPolicy policy) {
        this.policy = policy;
        installed.invalidate();
    }

    /** With a greedy reference the replacement arrives first, so only the current one resets. */
    public synchronized void policyGone(SelectionPolicy gone) {
        if (policy == gone) {
            policy(FirstApplicablePolicy.INSTANCE);
        }
    }

    /** Tells {@code listener} of methods and transforms selection meets but lacks. */
    public synchronized void onDemand(InstallOnDemand listener) {
        onDemand = listener;
    }

    /** A provisioner may be replaced before the old one is gone, so only the current one resets. */
    public synchronized void onDemandGone(InstallOnDemand gone) {
        if (onDemand == gone) {
            onDemand = InstallOnDemand.NONE;
        }
    }

    /** Explains what selection would choose now, without connecting. */
    public Explanation explain(ContextId target, int endpoint, EncodedTable table, LinkOptions options) {
        return select(target, endpoint, table, options, null).explanation();
    }

    /**
     * What the policy chooses for each class of RSR sizes it asks for ({@link SelectionPolicy#sizeClasses}),
     * without connecting. One request serves every class, so each entry is assessed once; the
     * entries the link's selection failed to connect stay refused.
     *
     * @param connectFailed the entries the link's selection failed to connect
     * @param linkEntry the link's choice, which takes every class the policy finds no entry for
     * @return the choices, or {@code null} if every size goes by the link's choice
     * @throws PolylinkException if the policy failed, gave sizes that are not ascending and
     *     positive, or chose an entry that is not usable
     */
    public SizeChoices sizeChoices(ContextId target, int endpoint, EncodedTable table, LinkOptions options,
                                   BitSet connectFailed, Descriptor linkEntry) {
        SelectionPolicy policy = this.policy;
        Request request = new Request(installed, onDemand, target, endpoint, table, options, Sizes.ALL);
        connectFailed.stream().forEach(i -> request.refuse(i, "connecting to it failed as the link was bound"));
        int[] starts = starts(policy, request);
        if (starts.length == 0) {
            return null;
        }
        Descriptor[] entries = new Descriptor[starts.length + 1];
        boolean differs = false;
        for (int i = 0; i < entries.length; i++) {
            Sizes sizes = new Sizes(i == 0 ? 0 : starts[i - 1], i == starts.length ? Integer.MAX_VALUE : starts[i] - 1);
            entries[i] = checked(policy, request.forSizes(sizes)).chosen().map(Explanation.Entry::descriptor)
                .orElse(linkEntry);
            differs |= !entries[i].equals(linkEntry);
        }
        return differs ? new SizeChoices(starts, entries) : null;
    }

    /** @return the policy's size classes, checked: ascending sizes greater than 0, at most the SPI's bound */
    private static int[] starts(SelectionPolicy policy, Request request) {
        int[] starts;
        try {
            starts = policy.sizeClasses(request);
        } catch (Throwable t) {
            throw new PolylinkException("selection policy " + policy.name() + " failed to give size classes: " + t, t);
        }
        if (starts == null) {
            return new int[0];
        }
        starts = starts.clone();
        if (starts.length > SelectionPolicy.MAX_SIZE_CLASSES) {
            throw new PolylinkException("selection policy " + policy.name() + " gave " + starts.length
                + " size classes; at most " + SelectionPolicy.MAX_SIZE_CLASSES + " are allowed");
        }
        for (int i = 0; i < starts.length; i++) {
            if (starts[i] <= 0 || i > 0 && starts[i] <= starts[i - 1]) {
                throw new PolylinkException("selection policy " + policy.name() + " gave size classes "
                    + Arrays.toString(starts) + ": they must be ascending sizes greater than 0");
            }
        }
        return starts;
    }

    /**
     * @param table the target's table, which says where the target runs
     * @param binder what to make of the chosen entry, or {@code null} to only explain
     * @throws NoApplicableMethodException if there is a binder and no entry could be used
     * @throws PolylinkException if the policy failed or chose an entry that is not usable
     */
    public <T> Selection<T> select(ContextId target, int endpoint, EncodedTable table, LinkOptions options,
                                   Binder<T> binder) {
        Request request = new Request(installed, onDemand, target, endpoint, table, options, Sizes.ALL);
        BitSet connectFailed = new BitSet();
        SelectionPolicy policy = this.policy;
        for (int attempt = 0; attempt <= table.table().size(); attempt++) {
            Explanation explanation = checked(policy, request);
            var chosen = explanation.chosen();
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
        throw new IllegalStateException("selection did not settle in " + (table.table().size() + 1) + " rounds");
    }

    /**
     * Runs the policy and checks its choice is usable.
     *
     * @throws PolylinkException if the policy failed or chose an entry that is not usable
     */
    private static Explanation checked(SelectionPolicy policy, Request request) {
        Explanation explanation = choose(policy, request);
        var chosen = explanation.chosen();
        if (chosen.isPresent() && !request.assess(chosen.get().index()).usable()) {
            throw new PolylinkException("selection policy " + policy.name() + " chose entry "
                + (chosen.get().index() + 1) + " (" + chosen.get().descriptor().stack()
                + "), which is not usable: " + request.assess(chosen.get().index()).reason());
        }
        return explanation;
    }

    /** Runs a policy, perhaps a third party's: whatever it throws fails this selection, never the thread. */
    private static Explanation choose(SelectionPolicy policy, Request request) {
        try {
            return policy.select(request);
        } catch (PolylinkException e) {
            throw e;
        } catch (Throwable t) {
            throw new PolylinkException("selection policy " + policy.name() + " failed: " + t, t);
        }
    }

    /** The core's assessment of each entry, computed once and kept for the selection. */
    private static final class Request implements SelectionRequest {
        private final Installed installed;
        private final InstallOnDemand onDemand;
        private final ContextId target;
        private final int endpoint;
        private final DescriptorTable table;
        private final PeerLocation location;
        /** Where the target runs, said with every usable entry when it is another host. */
        private final String whereTarget;
        private final LinkOptions options;
        private final Sizes sizes;
        private final Assessment[] assessed;

        Request(Installed installed, InstallOnDemand onDemand, ContextId target, int endpoint, EncodedTable table,
                LinkOptions options, Sizes sizes) {
            this.installed = installed;
            this.onDemand = onDemand;
            this.target = target;
            this.endpoint = endpoint;
            this.table = table.table();
            this.location = table.origin().seenFrom(installed.origin());
            this.whereTarget = where(table.origin(), installed.origin(), location);
            this.options = options;
            this.sizes = sizes;
            this.assessed = new Assessment[this.table.size()];
        }

        private Request(Request other, Sizes sizes) {
            this.installed = other.installed;
            this.onDemand = other.onDemand;
            this.target = other.target;
            this.endpoint = other.endpoint;
            this.table = other.table;
            this.location = other.location;
            this.whereTarget = other.whereTarget;
            this.options = other.options;
            this.sizes = sizes;
            this.assessed = other.assessed;
        }

        /** @return the same request for RSRs of {@code sizes}, sharing what was assessed */
        Request forSizes(Sizes sizes) {
            return new Request(this, sizes);
        }

        @Override
        public PeerLocation location() {
            return location;
        }

        @Override
        public Sizes sizes() {
            return sizes;
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
            CommunicationMethod method = installed.method(d.method());
            if (method == null) {
                return new Assessment(Verdict.NOT_INSTALLED, "method " + d.method() + " is not installed here"
                    + onDemand.missing(InstallOnDemand.METHOD, d.method()));
            }
            for (String transform : d.transforms()) {
                if (installed.transform(transform) == null) {
                    return new Assessment(Verdict.NOT_INSTALLED,
                        "transform " + transform + " is not installed here"
                            + onDemand.missing(InstallOnDemand.TRANSFORM, transform));
                }
            }
            String unaccepted = installed.required().refusal(d.method(), d.transforms(), location);
            if (unaccepted != null) {
                return new Assessment(Verdict.REFUSED, unaccepted);
            }
            Applicability a;
            try {
                a = method.applicable(target, d.address());
            } catch (Throwable e) {
                return new Assessment(Verdict.REFUSED, "method " + d.method() + " failed to assess "
                    + method.describe(d.address()) + ": " + e);
            }
            return a.applicable() ? new Assessment(Verdict.CHOSEN, a.reason() + whereTarget)
                : new Assessment(Verdict.REFUSED, a.reason());
        }

        /** @return where a target on another host runs, for explanations: its host and site, and this one's */
        private static String where(Origin target, Origin here, PeerLocation location) {
            return switch (location) {
                case SAME_CONTEXT, SAME_HOST -> "";
                case SAME_SITE -> "; on another host of this site, " + here.site();
                case OTHER_SITE -> target.host() == null ? "; the target does not say where it runs"
                    : "; on another host (" + target.host() + "), " + (target.site().isEmpty() ? "a site of its own"
                    : "site " + target.site()) + "; here " + (here.site().isEmpty() ? "a site of its own"
                    : "site " + here.site());
            };
        }
    }
}
