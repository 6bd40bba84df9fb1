package io.polylink.core.internal.registry;

import io.polylink.Descriptor;
import io.polylink.DescriptorTable;
import io.polylink.core.internal.config.RequiredStacks;
import io.polylink.core.internal.local.LocalMethod;
import io.polylink.core.internal.wire.EncodedTable;
import io.polylink.core.internal.wire.Origin;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What this context's descriptor table lists, in order: {@code local}; the stacks of descriptor
 * files; then the stacks the configuration names, or else every installed method in preference
 * order. A stack whose method or transforms are not installed is left out until they are, and so is
 * one the context does not accept from every peer ({@link RequiredStacks}): a peer would choose it
 * only to be refused. The table also says where the context runs. Not thread-safe:
 * {@link Installed} uses it under its lock.
 */
final class OwnTable {

    private List<String> configured;
    private final Origin origin;
    private RequiredStacks required;
    private final DeployedStacks deployed = new DeployedStacks();

    /**
     * @param configured the stacks the configuration names; empty for every installed method
     * @param origin where this context runs, which the table tells whoever dials by it
     * @param required what the context requires of every peer's stacks
     */
    OwnTable(List<String> configured, Origin origin, RequiredStacks required) {
        this.configured = List.copyOf(configured);
        this.origin = origin;
        this.required = required;
    }

    /** @return whether the table changes */
    boolean deploy(String file, List<String> stacks) {
        return deployed.put(file, stacks);
    }

    /** @return whether the table changes */
    boolean withdraw(String file) {
        return deployed.remove(file);
    }

    /** @return whether the table changes: whether {@code stacks} differ from those configured before */
    boolean configure(List<String> stacks) {
        List<String> before = configured;
        configured = List.copyOf(stacks);
        return !configured.equals(before);
    }

    /** @return whether the table may change: whether {@code next} differs from what was required before */
    boolean require(RequiredStacks next) {
        RequiredStacks before = required;
        required = next;
        return !next.equals(before);
    }

    /** @return the table for these methods and transforms */
    EncodedTable build(Map<String, InstalledMethod> methods, Set<String> transforms) {
        List<Descriptor> entries = new ArrayList<>();
        entries.add(new Descriptor(LocalMethod.NAME, new byte[0]));
        deployed.appendTo(entries, name -> methods.containsKey(name) ? methods.get(name).address() : null, transforms);
        if (configured.isEmpty()) {
            methods.values().stream()
                .filter(m -> !m.method().name().equals(LocalMethod.NAME))
                .sorted(Comparator.comparingInt(InstalledMethod::preference).thenComparing(m -> m.method().name()))
                .forEach(m -> entries.add(new Descriptor(m.method().name(), m.address())));
        } else {
            for (String stack : configured) {
                Descriptor wanted = new Descriptor(stack, new byte[0]);
                InstalledMethod m = methods.get(wanted.method());
                if (m != null && !wanted.method().equals(LocalMethod.NAME)
                    && transforms.containsAll(wanted.transforms())) {
                    entries.add(new Descriptor(stack, m.address()));
                }
            }
        }
        entries.removeIf(d -> !required.admitsEveryone(d.method(), d.transforms()));
        return EncodedTable.of(DescriptorTable.of(DeployedStacks.distinct(entries)), origin);
    }
}
