package io.polylink.spi;

import java.lang.annotation.Annotation;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Typed reading of a component's configuration: the properties Configuration Admin delivers (from
 * a {@code .cfg} file, the shell or code) read through an annotation type that declares each key
 * and its default once, as Declarative Services' component property types do.
 *
 * <pre>{@code
 * @interface UdpConfig {
 *     int port() default 0;
 *     String[] advertise() default {};
 *     IdleStrategy idle() default IdleStrategy.SPIN_THEN_PARK;
 * }
 * UdpConfig config = Configuration.read("com.example.udp", UdpConfig.class, properties);
 * }</pre>
 *
 * <p>Keys follow the component property type rules: a method {@code install_enabled()} reads key
 * {@code install.enabled} ({@code _} becomes {@code .}, {@code __} becomes {@code _}, {@code $_$}
 * becomes {@code -}). Element types: {@code String}, {@code String[]}, {@code int}, {@code long},
 * {@code double}, {@code boolean} and enums. A value arrives as that type or as text: text for an
 * array is split at commas (a {@code .cfg} file gives {@code a,b} as one string), for an enum it
 * is the constant's name in any case with {@code -} for {@code _} ({@code spin-then-park}), and
 * for a boolean only {@code true} or {@code false}. Keys the type does not declare are ignored.
 * Every value is converted when the configuration is read, so a bad one fails there, with an
 * {@link InvalidSettingException} naming the component, the key and what is allowed.
 */
public final class Configuration {

    private Configuration() {}

    /**
     * @param component the configuration PID, for error messages
     * @param type the annotation type declaring the keys and their defaults
     * @param properties the configuration; may hold keys the type does not declare
     * @param <C> the annotation type
     * @return the configuration as an instance of {@code type}
     * @throws InvalidSettingException if a value cannot be converted
     * @throws IllegalArgumentException if {@code type} declares an element of an unsupported type
     */
    public static <C extends Annotation> C read(String component, Class<C> type, Map<String, ?> properties) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (Method m : elements(type)) {
            String key = key(m);
            Object given = properties.get(key);
            values.put(m.getName(), given == null ? m.getDefaultValue() : convert(component, key, given,
                m.getReturnType()));
        }
        Object proxy = Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
            (self, method, args) -> switch (method.getName()) {
                case "annotationType" -> type;
                case "toString" -> type.getSimpleName() + values.entrySet().stream()
                    .map(e -> e.getKey() + "=" + text(e.getValue())).collect(Collectors.joining(", ", "(", ")"));
                case "hashCode" -> System.identityHashCode(self);
                case "equals" -> self == args[0];
                default -> copy(values.get(method.getName()));
            });
        return type.cast(proxy);
    }

    /**
     * @param type an annotation type as {@link #read} takes
     * @return each key it declares with its default, in declaration order: for documentation and
     *     shell listings
     */
    public static Map<String, Object> defaults(Class<? extends Annotation> type) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Method m : elements(type)) {
            out.put(key(m), m.getDefaultValue());
        }
        return out;
    }

    /**
     * Checks that a setting lies in a range.
     *
     * @param component the configuration PID
     * @param key the key
     * @param value its value
     * @param min the smallest allowed
     * @param max the largest allowed
     * @return {@code value}
     * @throws InvalidSettingException naming the range if it lies outside
     */
    public static long requireRange(String component, String key, long value, long min, long max) {
        if (value < min || value > max) {
            throw new InvalidSettingException(component, key, value, "in " + min + ".." + max);
        }
        return value;
    }

    /**
     * @param element an element of an annotation type
     * @return the configuration key it reads
     */
    public static String key(Method element) {
        String name = element.getName();
        StringBuilder key = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '$') {
                if (name.startsWith("$$", i)) {
                    key.append('$');
                    i++;
                } else if (name.startsWith("$_$", i)) {
                    key.append('-');
                    i += 2;
                }
            } else if (c == '_') {
                if (name.startsWith("__", i)) {
                    key.append('_');
                    i++;
                } else {
                    key.append('.');
                }
            } else {
                key.append(c);
            }
        }
        return key.toString();
    }

    private static Method[] elements(Class<? extends Annotation> type) {
        if (!type.isAnnotation()) {
            throw new IllegalArgumentException(type + " is not an annotation type");
        }
        // Declaration order is not guaranteed by reflection; sort by name for a stable listing.
        Method[] methods = type.getDeclaredMethods();
        Arrays.sort(methods, (a, b) -> a.getName().compareTo(b.getName()));
        for (Method m : methods) {
            if (!supported(m.getReturnType())) {
                throw new IllegalArgumentException(type.getName() + "." + m.getName() + " has type "
                    + m.getReturnType().getSimpleName() + ", which a configuration cannot hold");
            }
        }
        return methods;
    }

    private static boolean supported(Class<?> t) {
        return t == String.class || t == String[].class || t == int.class || t == long.class || t == double.class
            || t == boolean.class || t.isEnum();
    }

    private static Object convert(String component, String key, Object given, Class<?> type) {
        if (type == String[].class) {
            return strings(given);
        }
        Object value = given;
        if (given.getClass().isArray() || given instanceof Collection) {
            Object[] items = given instanceof Collection<?> c ? c.toArray() : boxed(given);
            if (items.length != 1) {
                throw new InvalidSettingException(component, key, items, "a single value");
            }
            value = items[0];
        }
        if (type == String.class) {
            return value.toString().strip();
        }
        String text = value.toString().strip();
        try {
            if (type == int.class) {
                if (value instanceof Number n && n.longValue() == n.intValue()) {
                    return n.intValue();
                }
                return Integer.parseInt(text);
            }
            if (type == long.class) {
                return value instanceof Number n ? n.longValue() : Long.parseLong(text);
            }
            if (type == double.class) {
                return value instanceof Number n ? n.doubleValue() : Double.parseDouble(text);
            }
        } catch (NumberFormatException e) {
            // said below, with what is allowed
        }
        if (type == int.class) {
            throw new InvalidSettingException(component, key, value, "a 32-bit integer");
        }
        if (type == long.class) {
            throw new InvalidSettingException(component, key, value, "a 64-bit integer");
        }
        if (type == double.class) {
            throw new InvalidSettingException(component, key, value, "a number");
        }
        if (type == boolean.class) {
            if (value instanceof Boolean b) {
                return b;
            }
            if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
                return Boolean.parseBoolean(text);
            }
            throw new InvalidSettingException(component, key, value, "true or false");
        }
        return constant(component, key, text, type);
    }

    private static Object constant(String component, String key, String text, Class<?> type) {
        String wanted = text.replace('-', '_').toUpperCase(Locale.ROOT);
        for (Object c : type.getEnumConstants()) {
            if (((Enum<?>) c).name().equals(wanted)) {
                return c;
            }
        }
        throw new InvalidSettingException(component, key, text, "one of " + Arrays.stream(type.getEnumConstants())
            .map(c -> ((Enum<?>) c).name().toLowerCase(Locale.ROOT).replace('_', '-'))
            .collect(Collectors.joining(", ")));
    }

    private static String[] strings(Object given) {
        Object[] items = given instanceof Collection<?> c ? c.toArray()
            : given.getClass().isArray() ? boxed(given)
            : given.toString().split(",");
        return Arrays.stream(items).map(o -> String.valueOf(o).strip()).filter(s -> !s.isEmpty())
            .toArray(String[]::new);
    }

    private static Object[] boxed(Object array) {
        Object[] out = new Object[Array.getLength(array)];
        for (int i = 0; i < out.length; i++) {
            out[i] = Array.get(array, i);
        }
        return out;
    }

    private static Object copy(Object value) {
        return value instanceof String[] a ? a.clone() : value;
    }

    private static String text(Object value) {
        return value instanceof String[] a ? Arrays.toString(a) : String.valueOf(value);
    }
}
