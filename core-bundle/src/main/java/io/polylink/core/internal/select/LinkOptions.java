package io.polylink.core.internal.select;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * A startpoint's selection settings; immutable, replaced whole on change.
 *
 * @param pin the only stack to use, or {@code null}
 * @param forbidden stacks, methods and transforms never to use
 * @param parameters per method, overrides of its configured parameters
 */
public record LinkOptions(String pin, Set<String> forbidden, Map<String, Map<String, String>> parameters) {

    public static final LinkOptions DEFAULT = new LinkOptions(null, Set.of(), Map.of());

    public LinkOptions withPin(String stack) {
        return new LinkOptions(stack, forbidden, parameters);
    }

    public LinkOptions withForbidden(String methodOrStack) {
        Set<String> next = new HashSet<>(forbidden);
        next.add(methodOrStack);
        return new LinkOptions(pin, Set.copyOf(next), parameters);
    }

    public LinkOptions withParameter(String method, String key, String value) {
        Map<String, Map<String, String>> next = new HashMap<>(parameters);
        Map<String, String> forMethod = new HashMap<>(next.getOrDefault(method, Map.of()));
        if (value == null) {
            forMethod.remove(key);
        } else {
            forMethod.put(key, value);
        }
        next.put(method, Map.copyOf(forMethod));
        return new LinkOptions(pin, forbidden, Map.copyOf(next));
    }

    public Map<String, String> parameters(String method) {
        return parameters.getOrDefault(method, Map.of());
    }
}
