package io.polylink.core.internal.registry;

import io.polylink.Descriptor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The stacks descriptor files in the deploy directory add to the context's own table, by file.
 * They come right after {@code local}, in file-name order: dropping a file is a deliberate wish to
 * be reached that way. A stack whose method or transforms are not installed (yet) is left out
 * until they are. Not thread-safe: {@link OwnTable} uses it under {@link Installed}'s lock.
 */
final class DeployedStacks {

    private final Map<String, List<String>> byFile = new TreeMap<>();

    /** @return whether the table changes */
    boolean put(String file, List<String> stacks) {
        return !stacks.equals(byFile.put(file, List.copyOf(stacks)));
    }

    /** @return whether the table changes */
    boolean remove(String file) {
        return byFile.remove(file) != null;
    }

    /**
     * @param addressOf the local address of an installed method, or null if it is not installed
     * @param transforms the installed transforms
     */
    void appendTo(List<Descriptor> entries, Function<String, byte[]> addressOf, Set<String> transforms) {
        for (List<String> stacks : byFile.values()) {
            for (String stack : stacks) {
                Descriptor wanted = new Descriptor(stack, new byte[0]);
                byte[] address = addressOf.apply(wanted.method());
                if (address != null && transforms.containsAll(wanted.transforms())) {
                    entries.add(new Descriptor(stack, address));
                }
            }
        }
    }

    /** @return the entries without later repeats of a stack, so a deployed stack is not listed twice */
    static List<Descriptor> distinct(List<Descriptor> entries) {
        Map<String, Descriptor> first = new LinkedHashMap<>();
        entries.forEach(d -> first.putIfAbsent(d.stack(), d));
        return new ArrayList<>(first.values());
    }
}
