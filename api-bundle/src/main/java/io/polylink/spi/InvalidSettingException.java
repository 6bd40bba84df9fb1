package io.polylink.spi;

/**
 * A configuration value that cannot be used. The message names the component (its configuration
 * PID), the key, the value and what is allowed, so one log line tells an operator what to fix.
 */
public final class InvalidSettingException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String component;
    private final String key;

    /**
     * @param component the configuration PID, such as {@code io.polylink.method.tcp}
     * @param key the key, such as {@code port}
     * @param value the value as given, or {@code null}
     * @param allowed what would be accepted, such as {@code "an integer"}
     */
    public InvalidSettingException(String component, String key, Object value, String allowed) {
        super(component + ": " + key + "=" + quote(value) + " is not " + allowed);
        this.component = component;
        this.key = key;
    }

    private static String quote(Object value) {
        String text = value instanceof Object[] a ? String.join(",", java.util.Arrays.stream(a)
            .map(String::valueOf).toList()) : String.valueOf(value);
        return "'" + (text.length() > 200 ? text.substring(0, 200) + "…" : text) + "'";
    }

    /** @return the configuration PID */
    public String component() {
        return component;
    }

    /** @return the key */
    public String key() {
        return key;
    }
}
