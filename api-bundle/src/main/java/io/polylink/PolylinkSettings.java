package io.polylink;

import java.lang.reflect.Array;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What {@link Polylink#start} starts: the context's name, its methods and transforms, the
 * configuration of each part, and where the runtime keeps its files. Immutable; made by
 * {@link #builder()}.
 */
public final class PolylinkSettings {

    /** The methods a context gets when the settings name none: {@code tcp} and {@code shm}. */
    public static final List<String> DEFAULT_METHODS = List.of("tcp", "shm");
    /** How long {@link Polylink#start} waits for the context when the settings say nothing: 30 s. */
    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(30);

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}");
    private static final Pattern PART = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");

    private final String name;
    private final List<String> methods;
    private final List<String> transforms;
    private final Map<String, Map<String, Object>> configurations;
    private final List<Path> bundles;
    private final Path storage;
    private final boolean keepStorage;
    private final Duration startTimeout;

    private PolylinkSettings(Builder b) {
        name = b.name;
        methods = List.copyOf(b.methods);
        transforms = List.copyOf(b.transforms);
        Map<String, Map<String, Object>> copy = new LinkedHashMap<>();
        b.configurations.forEach((pid, properties) -> copy.put(pid, Map.copyOf(properties)));
        configurations = Map.copyOf(copy);
        bundles = List.copyOf(b.bundles);
        storage = b.storage;
        keepStorage = b.keepStorage;
        startTimeout = b.startTimeout;
    }

    /** @return a builder with the defaults: no name, {@link #DEFAULT_METHODS}, no transforms */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * @return the name the context's system endpoint is published under in the naming registry,
     *     or empty for none
     */
    public Optional<String> name() {
        return Optional.ofNullable(name);
    }

    /** @return the methods to start, by name, in the order given */
    public List<String> methods() {
        return methods;
    }

    /** @return the transforms to start, by name, in the order given */
    public List<String> transforms() {
        return transforms;
    }

    /** @return per configuration PID, the properties Config Admin holds before any part starts */
    public Map<String, Map<String, Object>> configurations() {
        return configurations;
    }

    /** @return further bundle jars to install and start, e.g. a third party's method */
    public List<Path> bundles() {
        return bundles;
    }

    /** @return the storage directory, or empty for a fresh one in {@code java.io.tmpdir} */
    public Optional<Path> storage() {
        return Optional.ofNullable(storage);
    }

    /** @return whether {@link Polylink#close()} leaves the storage directory in place */
    public boolean keepStorage() {
        return keepStorage;
    }

    /** @return how long starting and stopping may take */
    public Duration startTimeout() {
        return startTimeout;
    }

    @Override
    public String toString() {
        return "PolylinkSettings[name=" + name + ", methods=" + methods + ", transforms=" + transforms
            + ", configurations=" + configurations.keySet() + ", bundles=" + bundles + ", storage=" + storage
            + (keepStorage ? " (kept)" : "") + ", startTimeout=" + startTimeout + "]";
    }

    /** Collects settings; each method checks its argument and throws at once if it is wrong. */
    public static final class Builder {

        private String name;
        private List<String> methods = DEFAULT_METHODS;
        private List<String> transforms = List.of();
        private final Map<String, Map<String, Object>> configurations = new LinkedHashMap<>();
        private final List<Path> bundles = new ArrayList<>();
        private Path storage;
        private boolean keepStorage;
        private Duration startTimeout = DEFAULT_START_TIMEOUT;

        private Builder() {}

        /**
         * @param name the name to publish this context's system endpoint (echo, relay) under in
         *     the naming registry, as a node's {@code --name} does; {@code null} for none
         * @return this builder
         * @throws IllegalArgumentException if the name is not 1 to 128 letters, digits, '.', '_'
         *     and '-' (not starting with '.')
         */
        public Builder name(String name) {
            if (name != null && !NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("invalid context name '" + name
                    + "': use 1 to 128 letters, digits, '.', '_' and '-', not starting with '.'");
            }
            this.name = name;
            return this;
        }

        /**
         * @param names the methods to start, e.g. {@code "tcp", "shm"}; none for a context that
         *     reaches only itself until a method is deployed or installed on demand
         * @return this builder
         * @throws IllegalArgumentException if a name is not lower-case letters, digits and '-'
         */
        public Builder methods(String... names) {
            methods = parts("method", names);
            return this;
        }

        /**
         * @param names the transforms to start, e.g. {@code "lz4", "aead"}. A context advertises a
         *     stack with a transform only if its table names it (configuration PID
         *     {@code io.polylink.core}, key {@code table}); a startpoint may ask for one.
         * @return this builder
         * @throws IllegalArgumentException if a name is not lower-case letters, digits and '-'
         */
        public Builder transforms(String... names) {
            transforms = parts("transform", names);
            return this;
        }

        /**
         * Sets the configuration of one part, as a {@code PID.cfg} file in a node's
         * {@code conf/} would: {@code io.polylink.core}, {@code io.polylink.registry},
         * {@code io.polylink.method.tcp}, {@code io.polylink.method.shm},
         * {@code io.polylink.method.compress}, {@code io.polylink.method.crypto}, or any other
         * bundle's PID. Replaces what an earlier call gave for the same PID.
         *
         * @param pid the configuration PID
         * @param properties keys and values; a value is a String, a boxed primitive, or an array
         *     of them, as Config Admin takes them
         * @return this builder
         * @throws IllegalArgumentException naming the key if a value is null or of another type
         */
        public Builder configure(String pid, Map<String, ?> properties) {
            Objects.requireNonNull(pid, "pid");
            if (pid.isBlank()) {
                throw new IllegalArgumentException("a configuration PID must not be blank");
            }
            Map<String, Object> checked = new LinkedHashMap<>();
            properties.forEach((key, value) -> checked.put(key, configurationValue(pid, key, value)));
            configurations.put(pid, checked);
            return this;
        }

        /**
         * @param jar a bundle jar to install and start with the context, e.g. a third party's
         *     method; its method or transform can then be named in {@link #methods} or
         *     {@link #transforms}
         * @return this builder
         */
        public Builder bundle(Path jar) {
            bundles.add(Objects.requireNonNull(jar, "jar").toAbsolutePath().normalize());
            return this;
        }

        /**
         * @param directory where the runtime keeps its files; created if missing. An existing
         *     directory must be empty or one a Polylink runtime made, since it is removed on
         *     close. {@code null}: a fresh directory in {@code java.io.tmpdir}.
         * @return this builder
         */
        public Builder storage(Path directory) {
            storage = directory == null ? null : directory.toAbsolutePath().normalize();
            return this;
        }

        /**
         * @param keep whether {@link Polylink#close()} leaves the storage directory (and what was
         *     put in its deploy directory) for the next start; by default it is removed
         * @return this builder
         */
        public Builder keepStorage(boolean keep) {
            keepStorage = keep;
            return this;
        }

        /**
         * @param timeout how long {@link Polylink#start} waits for the context, and
         *     {@link Polylink#close()} for the runtime to stop
         * @return this builder
         * @throws IllegalArgumentException if not positive
         */
        public Builder startTimeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("the start timeout must be positive, not " + timeout);
            }
            startTimeout = timeout;
            return this;
        }

        /** @return the settings */
        public PolylinkSettings build() {
            return new PolylinkSettings(this);
        }

        private static List<String> parts(String kind, String... names) {
            List<String> out = new ArrayList<>();
            for (String n : names) {
                if (n == null || !PART.matcher(n).matches()) {
                    throw new IllegalArgumentException("invalid " + kind + " name '" + n
                        + "': use lower-case letters, digits and '-', e.g. 'tcp'");
                }
                if (!out.contains(n)) {
                    out.add(n);
                }
            }
            return List.copyOf(out);
        }

        private static Object configurationValue(String pid, String key, Object value) {
            Objects.requireNonNull(key, "key");
            if (value == null) {
                throw new IllegalArgumentException(pid + ": key '" + key + "' has no value; leave the key out "
                    + "for its default");
            }
            Class<?> type = value.getClass().isArray() ? value.getClass().getComponentType() : value.getClass();
            boolean scalar = type == String.class || type.isPrimitive() || type == Boolean.class
                || type == Character.class || (Number.class.isAssignableFrom(type) && type.getPackageName().equals("java.lang"));
            if (!scalar) {
                throw new IllegalArgumentException(pid + ": key '" + key + "' has a value of type "
                    + value.getClass().getTypeName() + "; Config Admin takes a String, a boxed primitive or an array "
                    + "of them");
            }
            if (value.getClass().isArray()) {
                Object copy = Array.newInstance(type, Array.getLength(value));
                System.arraycopy(value, 0, copy, 0, Array.getLength(value));
                return copy;
            }
            return value;
        }
    }
}
