package io.polylink.core.internal.naming;

import io.polylink.PolylinkException;
import io.polylink.spi.NameRegistry;
import java.io.IOException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Where this context publishes and looks up startpoints by name: the naming registry in use (the
 * directory registry, or another {@link NameRegistry} service), and the rule names follow.
 * Called on the application's threads; the registry's own I/O runs there too.
 */
public final class Names {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}");

    private volatile NameRegistry registry;

    /** Uses {@code registry} from now on. */
    public synchronized void use(NameRegistry registry) {
        this.registry = registry;
    }

    /** With a greedy reference the replacement arrives first, so only the current one is let go. */
    public synchronized void gone(NameRegistry gone) {
        if (registry == gone) {
            registry = null;
        }
    }

    /** @return whether a registry is in use */
    public boolean ready() {
        return registry != null;
    }

    /** @throws PolylinkException if the name is invalid, there is no registry, or it fails */
    public void publish(String name, String startpoint) {
        try {
            registry(name).publish(name, startpoint);
        } catch (IOException e) {
            throw new PolylinkException("cannot publish '" + name + "': " + e.getMessage(), e);
        }
    }

    /**
     * @return the startpoint's text published under the name, if any
     * @throws PolylinkException if the name is invalid, there is no registry, or it fails
     */
    public Optional<String> lookup(String name) {
        try {
            return registry(name).lookup(name);
        } catch (IOException e) {
            throw new PolylinkException("cannot look up '" + name + "': " + e.getMessage(), e);
        }
    }

    /** @throws PolylinkException if the name is invalid, there is no registry, or it fails */
    public void unpublish(String name) {
        try {
            registry(name).unpublish(name);
        } catch (IOException e) {
            throw new PolylinkException("cannot unpublish '" + name + "': " + e.getMessage(), e);
        }
    }

    private NameRegistry registry(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new PolylinkException("invalid name '" + name + "': use 1 to 128 letters, digits, "
                + "'.', '_' and '-', not starting with '.'");
        }
        NameRegistry r = registry;
        if (r == null) {
            throw new PolylinkException("no naming registry is available; start the core's directory "
                + "registry or register a NameRegistry service");
        }
        return r;
    }
}
