package io.polylink.policy.plogp.internal;

import io.polylink.Descriptor;
import io.polylink.Explanation;
import io.polylink.Verdict;
import io.polylink.plogp.LinkModel;
import io.polylink.plogp.ModelDatabase;
import io.polylink.policy.plogp.internal.CostModel.Candidate;
import io.polylink.spi.PeerLocation;
import io.polylink.spi.SelectionPolicy;
import io.polylink.spi.SelectionRequest;
import io.polylink.spi.SelectionRequest.Assessment;
import io.polylink.spi.SelectionRequest.Sizes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code cost-model} selection policy: among the usable entries of a target's table, the one
 * whose measured P-LogP model predicts a message arrives first, for each class of sizes where that
 * differs. A link whose first usable entry has no model goes by table order, as
 * {@code first-applicable} would: without a measurement there is nothing to weigh against the
 * order the target gave. {@link CostModelComponent} registers it while configured to.
 */
public final class CostModelPolicy implements SelectionPolicy {

    static final String NAME = "cost-model";

    /** Sizes each measured entry's prediction is shown at, in explanations. */
    private static final long[] SHOWN = {64, 64 << 10, 4 << 20};

    private final ModelFile file;
    private final double margin;

    /**
     * @param models the model file, read again whenever it changes
     * @param margin how much faster, as a fraction, a stack must be predicted to take sizes from
     *     the one before it
     * @throws IllegalArgumentException if the margin is not a fraction from 0 to 1
     */
    public CostModelPolicy(Path models, double margin) {
        if (!(margin >= 0 && margin <= 1)) {
            throw new IllegalArgumentException("margin " + margin + " is not a fraction from 0 to 1");
        }
        this.file = new ModelFile(models);
        this.margin = margin;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int[] sizeClasses(SelectionRequest request) {
        Optional<CostModel> model = model(request, usable(request));
        return model.map(CostModel::starts).orElse(new int[0]);
    }

    @Override
    public Explanation select(SelectionRequest request) {
        List<Integer> usable = usable(request);
        Optional<CostModel> model = model(request, usable);
        List<Explanation.Entry> entries = new ArrayList<>(request.table().size());
        if (model.isEmpty()) {
            int first = usable.isEmpty() ? -1 : usable.get(0);
            String why = usable.isEmpty() || request.location() == PeerLocation.SAME_CONTEXT ? ""
                : "; " + unmeasured(request, first);
            for (int i = 0; i < request.table().size(); i++) {
                Assessment a = request.assess(i);
                Descriptor d = request.table().get(i);
                entries.add(i == first ? new Explanation.Entry(i, d, Verdict.CHOSEN, a.reason() + why)
                    : first >= 0 && i > first ? new Explanation.Entry(i, d, Verdict.NOT_CONSIDERED,
                        "entry " + (first + 1) + " was chosen first")
                    : new Explanation.Entry(i, d, a.verdict(), a.reason()));
            }
            return new Explanation(request.target(), request.endpoint(), NAME, entries);
        }
        CostModel costs = model.get();
        Sizes sizes = request.sizes();
        Candidate chosen = costs.fastest(sizes);
        for (int i = 0; i < request.table().size(); i++) {
            Assessment a = request.assess(i);
            Descriptor d = request.table().get(i);
            if (!a.usable()) {
                entries.add(new Explanation.Entry(i, d, a.verdict(), a.reason()));
                continue;
            }
            Optional<LinkModel> m = models(request).find(request.location(), d.stack());
            if (m.isEmpty()) {
                entries.add(new Explanation.Entry(i, d, Verdict.NOT_CONSIDERED, unmeasured(request, i)));
            } else if (i == chosen.index()) {
                entries.add(new Explanation.Entry(i, d, Verdict.CHOSEN, "fastest by its P-LogP model for "
                    + sizes + ": " + predictions(m.get(), sizes)
                    + (sizes.equals(Sizes.ALL) && costs.starts().length > 0 ? "; by size: " + costs.classes() : "")));
            } else {
                entries.add(new Explanation.Entry(i, d, Verdict.NOT_CONSIDERED, "slower by its P-LogP model for "
                    + sizes + ": " + predictions(m.get(), sizes)));
            }
        }
        return new Explanation(request.target(), request.endpoint(), NAME, entries);
    }

    private static List<Integer> usable(SelectionRequest request) {
        List<Integer> usable = new ArrayList<>();
        for (int i = 0; i < request.table().size(); i++) {
            if (request.assess(i).usable()) {
                usable.add(i);
            }
        }
        return usable;
    }

    private ModelDatabase models(SelectionRequest request) {
        return request.location() == PeerLocation.SAME_CONTEXT ? ModelDatabase.EMPTY : file.models();
    }

    /**
     * @return the costs of the usable entries with models, each stack once; empty if the first
     *     usable entry has no model, which leaves the link to table order
     */
    private Optional<CostModel> model(SelectionRequest request, List<Integer> usable) {
        if (usable.isEmpty()) {
            return Optional.empty();
        }
        ModelDatabase models = models(request);
        List<Candidate> candidates = new ArrayList<>();
        Set<String> stacks = new HashSet<>();
        for (int i : usable) {
            Descriptor d = request.table().get(i);
            Optional<LinkModel> m = models.find(request.location(), d.stack());
            if (m.isEmpty() && candidates.isEmpty()) {
                return Optional.empty();
            }
            if (m.isPresent() && stacks.add(d.stack())) {
                candidates.add(new Candidate(i, d, m.get()));
            }
        }
        return Optional.of(new CostModel(candidates, margin));
    }

    private String unmeasured(SelectionRequest request, int index) {
        String stack = request.table().get(index).stack();
        String problem = file.problem();
        return "no P-LogP model of " + stack + " " + ModelDatabase.text(request.location())
            + (problem == null ? " in " + file.path() : " (" + problem + ")");
    }

    /** @return the predicted arrival times at a few sizes, e.g. {@code L+g: 64 B 10.1 ms, 64 KiB 75.3 ms} */
    private static String predictions(LinkModel model, Sizes sizes) {
        StringBuilder out = new StringBuilder("L+g");
        String sep = ": ";
        for (long m : SHOWN) {
            if (sizes.contains((int) m)) {
                out.append(sep).append(bytes(m)).append(' ').append(time(model.messageTime(m)));
                sep = ", ";
            }
        }
        if (sep.equals(": ")) {
            long m = sizes.smallest();
            out.append(sep).append(bytes(m)).append(' ').append(time(model.messageTime(m)));
        }
        return out.toString();
    }

    private static String bytes(long m) {
        return m >= 1 << 20 && m % (1 << 20) == 0 ? (m >> 20) + " MiB"
            : m >= 1 << 10 && m % (1 << 10) == 0 ? (m >> 10) + " KiB" : m + " B";
    }

    private static String time(double micros) {
        return micros >= 1e6 ? String.format("%.2f s", micros / 1e6)
            : micros >= 1e3 ? String.format("%.1f ms", micros / 1e3) : String.format("%.1f µs", micros);
    }

    @Override
    public String toString() {
        return "cost-model policy (models " + file.path() + ", margin " + margin + ")";
    }
}
