package io.polylink.core.internal.select;

import io.polylink.Explanation;
import io.polylink.Verdict;
import io.polylink.spi.SelectionPolicy;
import io.polylink.spi.SelectionRequest.Assessment;
import io.polylink.spi.SelectionRequest;
import java.util.ArrayList;
import java.util.List;

/** The Nexus policy: the first entry in table order that is usable. */
final class FirstApplicablePolicy implements SelectionPolicy {

    static final FirstApplicablePolicy INSTANCE = new FirstApplicablePolicy();

    @Override
    public String name() {
        return "first-applicable";
    }

    @Override
    public Explanation select(SelectionRequest request) {
        List<Explanation.Entry> entries = new ArrayList<>(request.table().size());
        int chosen = -1;
        for (int i = 0; i < request.table().size(); i++) {
            if (chosen >= 0) {
                entries.add(new Explanation.Entry(i, request.table().get(i), Verdict.NOT_CONSIDERED,
                    "entry " + (chosen + 1) + " was chosen first"));
                continue;
            }
            Assessment a = request.assess(i);
            entries.add(new Explanation.Entry(i, request.table().get(i), a.verdict(), a.reason()));
            if (a.usable()) {
                chosen = i;
            }
        }
        return new Explanation(request.target(), request.endpoint(), name(), entries);
    }
}
