package io.polylink.core.internal.provision;

import io.polylink.core.internal.config.CoreConfig;
import io.polylink.core.internal.config.CoreSettings;
import java.net.URI;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;

/**
 * Where missing methods and transforms come from and which may come, from the core's
 * configuration ({@code repository}, {@code install.enabled}, {@code install.allowed}).
 *
 * @param repository the index to install from, or {@code null} for none
 * @param enabled whether selection and descriptor files install what they lack
 * @param allowed names that may be installed that way; empty for whatever the repository offers
 */
record ProvisionSettings(URI repository, boolean enabled, Set<String> allowed) {

    ProvisionSettings {
        allowed = Set.copyOf(allowed);
    }

    /**
     * @param fallback the framework property {@code polylink.repository}, used when the
     *     configuration names no repository; may be null
     */
    static ProvisionSettings of(CoreConfig config, String fallback) {
        String text = !config.repository().isEmpty() ? config.repository() : fallback;
        return new ProvisionSettings(text == null || text.isBlank() ? null : CoreSettings.repository(text),
            config.install_enabled(), Set.copyOf(Arrays.asList(config.install_allowed())));
    }

    /** @return why {@code name} may not be installed automatically, or {@code null} if it may */
    String refusal(String name) {
        if (!enabled) {
            return "automatic install is off (install.enabled=false in io.polylink.core)";
        }
        if (repository == null) {
            return "no bundle repository is configured to install it from (set 'repository' in io.polylink.core "
                + "to the path or URL of an OSGi Repository XML index)";
        }
        if (!allowed.isEmpty() && !allowed.contains(name)) {
            return "install.allowed (" + String.join(",", new TreeSet<>(allowed)) + ") does not list it";
        }
        return null;
    }
}
