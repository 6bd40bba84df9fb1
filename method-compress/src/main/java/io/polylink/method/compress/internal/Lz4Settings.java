package io.polylink.method.compress.internal;

import io.polylink.spi.TransformScope;
import java.util.Map;

/**
 * The lz4 transform's parameters, read from configuration properties keyed as in
 * {@link Lz4Config}.
 *
 * @param minSize payloads shorter than this are sent stored
 * @param scope on which connections to compress at all
 */
record Lz4Settings(int minSize, TransformScope scope) {

    static final int DEFAULT_MIN_SIZE = 64;
    static final Lz4Settings DEFAULTS = new Lz4Settings(DEFAULT_MIN_SIZE, TransformScope.ALWAYS);

    Lz4Settings {
        if (minSize < 0) {
            throw new IllegalArgumentException("lz4 minSize " + minSize + " is negative; use 0 to "
                + "try compressing every payload");
        }
    }

    /** @throws IllegalArgumentException naming the property that is wrong */
    static Lz4Settings parse(Map<String, ?> properties) {
        Object minSize = properties.get("minSize");
        Object scope = properties.get("scope");
        return new Lz4Settings(
            minSize == null ? DEFAULT_MIN_SIZE : integer("minSize", minSize),
            scope == null ? DEFAULTS.scope() : scope(scope.toString()));
    }

    private static TransformScope scope(String text) {
        try {
            return TransformScope.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("lz4 " + e.getMessage(), e);
        }
    }

    private static int integer(String key, Object value) {
        if (value instanceof Number n) {
            return n.intValue();
        }
        try {
            return Integer.parseInt(value.toString().strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("lz4 property " + key + "='" + value + "' is not an integer", e);
        }
    }
}
