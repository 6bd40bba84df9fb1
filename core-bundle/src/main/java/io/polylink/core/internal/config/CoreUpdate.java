package io.polylink.core.internal.config;

import io.polylink.spi.Configuration;
import io.polylink.spi.InvalidSettingException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A configuration of the core read against the one in force. A value that cannot be used is
 * refused on its own: its key keeps the value in force (its default, when nothing was in force
 * yet), and the other keys of the same change still apply. What changed is then sorted into keys
 * that apply in place and keys that need the context runtime made again.
 *
 * @param config the configuration now in force
 * @param settings its checked parameters
 * @param properties the properties it was read from, refused values replaced: the "in force" of
 *     the next change
 * @param refused one exception per refused value, each naming the key, the value and what is
 *     allowed
 */
public record CoreUpdate(CoreConfig config, CoreSettings settings, Map<String, Object> properties,
                         List<InvalidSettingException> refused) {

    /**
     * Keys whose change applies to the running context; any other key, including one added later,
     * makes the context runtime start again (with its id kept) until someone makes it live here
     * and where it is applied.
     */
    public static final Set<String> LIVE = Set.of("table", "abandonAfterMs", "quietAckMs", "handlerThreads", "name",
        RequiredStacks.EVERYONE, RequiredStacks.OTHER_HOST, RequiredStacks.OTHER_SITE, "systemTargets", "repository",
        "install.enabled", "install.allowed");

    /** Live keys whose change closes every open connection, so its stacks are checked again as it reopens. */
    public static final Set<String> RECHECKED = Set.of(RequiredStacks.EVERYONE, RequiredStacks.OTHER_HOST,
        RequiredStacks.OTHER_SITE);

    public CoreUpdate {
        properties = Map.copyOf(properties);
        refused = List.copyOf(refused);
    }

    /**
     * @param proposed the configuration as Configuration Admin delivers it; may hold keys the
     *     core does not declare
     * @param inForce the properties of the update in force ({@link #properties()}), or an empty
     *     map when nothing is in force yet
     * @return the update, with the values it refused
     */
    public static CoreUpdate read(Map<String, ?> proposed, Map<String, ?> inForce) {
        Map<String, Object> properties = new HashMap<>();
        proposed.forEach((key, value) -> {
            if (value != null) {
                properties.put(key, value);
            }
        });
        List<InvalidSettingException> refused = new ArrayList<>();
        Map<String, Integer> tries = new HashMap<>();
        while (true) {
            try {
                CoreConfig config = Configuration.read(CoreSettings.PID, CoreConfig.class, properties);
                return new CoreUpdate(config, CoreSettings.of(config), properties, refused);
            } catch (InvalidSettingException e) {
                String key = e.key();
                int attempt = tries.merge(key, 1, Integer::sum);
                if (attempt == 1) {
                    refused.add(e);
                }
                Object previous = inForce.get(key);
                if (attempt == 1 && previous != null && !previous.equals(properties.get(key))) {
                    properties.put(key, previous);
                } else if (properties.remove(key) == null) {
                    throw new IllegalStateException("the default of " + key + " is refused: " + e.getMessage(), e);
                }
            }
        }
    }

    /** @return the keys whose value differs from {@code before}'s, in name order */
    public Set<String> changedFrom(CoreUpdate before) {
        Map<String, Object> now = values(config);
        Map<String, Object> then = values(before.config);
        Set<String> changed = new TreeSet<>();
        now.forEach((key, value) -> {
            if (!value.equals(then.get(key))) {
                changed.add(key);
            }
        });
        return changed;
    }

    /** @return the value in force for {@code key} as a {@code .cfg} file would give it, lists comma-separated */
    public String value(String key) {
        Object value = values(config).get(key);
        return "'" + (value instanceof List<?> list ? String.join(",", list.stream().map(String::valueOf).toList())
            : String.valueOf(value)) + "'";
    }

    /** @return those of {@code keys} that only a new context runtime can apply */
    public static Set<String> needingRestart(Set<String> keys) {
        Set<String> restart = new TreeSet<>(keys);
        restart.removeAll(LIVE);
        return restart;
    }

    /** @return each key with its value, arrays as lists, so values compare by content */
    private static Map<String, Object> values(CoreConfig config) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Method m : CoreConfig.class.getDeclaredMethods()) {
            Object value;
            try {
                value = m.invoke(config);
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException("cannot read " + m.getName() + " of the core's configuration", e);
            }
            out.put(Configuration.key(m), value instanceof Object[] array ? Arrays.asList(array) : value);
        }
        return out;
    }
}
