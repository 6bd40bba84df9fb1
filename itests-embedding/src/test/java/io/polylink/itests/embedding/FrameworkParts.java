package io.polylink.itests.embedding;

import io.polylink.spi.CommunicationMethod;
import io.polylink.spi.Transform;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Dictionary;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.launch.Framework;

/**
 * What a framework the test started has of Polylink: the methods and transforms registered as
 * services, its bundles, and the state of each Polylink component as its Declarative Services
 * runtime tells. The services are the framework's types, not this class path's, so they are
 * found whatever their class ({@code getAllServiceReferences}) and read by their properties and
 * by reflection.
 */
final class FrameworkParts {

    private static final Map<Integer, String> STATES = Map.of(1, "unsatisfied configuration", 2,
        "unsatisfied reference", 4, "satisfied", 8, "active", 16, "failed activation");

    private final Framework framework;

    FrameworkParts(Framework framework) {
        this.framework = framework;
    }

    /** @return the names of the methods registered now */
    Set<String> methods() {
        return registered(CommunicationMethod.NAME_PROPERTY);
    }

    /** @return the names of the transforms registered now */
    Set<String> transforms() {
        return registered(Transform.NAME_PROPERTY);
    }

    private Set<String> registered(String property) {
        Set<String> names = new TreeSet<>();
        try {
            ServiceReference<?>[] refs = framework.getBundleContext().getAllServiceReferences(null,
                "(" + property + "=*)");
            for (ServiceReference<?> ref : refs == null ? new ServiceReference<?>[0] : refs) {
                names.add(String.valueOf(ref.getProperty(property)));
            }
        } catch (InvalidSyntaxException e) {
            throw new AssertionError(e);
        }
        return names;
    }

    /** @return every bundle with its state, then every Polylink component with its state */
    String describe() {
        StringBuilder out = new StringBuilder("methods registered: " + methods() + "; transforms registered: "
            + transforms() + "\nbundles:");
        for (Bundle b : framework.getBundleContext().getBundles()) {
            out.append("\n  ").append(b.getSymbolicName()).append(' ').append(state(b.getState()));
        }
        out.append("\ncomponents:");
        components().forEach(c -> out.append("\n  ").append(c));
        out.append("\ncontexts: ").append(services("io.polylink.Context", "methods", "transforms"));
        out.append("\nnaming registries: ").append(services("io.polylink.spi.NameRegistry"));
        out.append("\nconfigurations in Config Admin: ").append(configurations());
        return out.toString();
    }

    /** @return the PIDs Config Admin holds configurations for, each with its bundle location and properties */
    private List<String> configurations() {
        BundleContext context = framework.getBundleContext();
        String type = "org.osgi.service.cm.ConfigurationAdmin";
        try {
            ServiceReference<?>[] refs = context.getAllServiceReferences(type, null);
            if (refs == null) {
                return List.of("(no " + type + ")");
            }
            Object admin = context.getService(refs[0]);
            try {
                Method list = Arrays.stream(admin.getClass().getInterfaces()).filter(i -> i.getName().equals(type))
                    .findFirst().orElseThrow().getMethod("listConfigurations", String.class);
                Object[] found = (Object[]) list.invoke(admin, (Object) null);
                List<String> out = new ArrayList<>();
                for (Object c : found == null ? new Object[0] : found) {
                    Method pid = c.getClass().getMethod("getPid");
                    Method location = c.getClass().getMethod("getBundleLocation");
                    pid.setAccessible(true);
                    location.setAccessible(true);
                    Method properties = c.getClass().getMethod("getProperties");
                    properties.setAccessible(true);
                    out.add(pid.invoke(c) + " at " + location.invoke(c) + " "
                        + shown((Dictionary<?, ?>) properties.invoke(c)));
                }
                return out;
            } finally {
                context.ungetService(refs[0]);
            }
        } catch (InvalidSyntaxException | ReflectiveOperationException | RuntimeException e) {
            return List.of("(cannot list them: " + e + ")");
        }
    }

    /** @return the properties, keys that hold secrets with their values hidden */
    private static String shown(Dictionary<?, ?> properties) {
        if (properties == null) {
            return "(no properties)";
        }
        Map<String, Object> out = new TreeMap<>();
        for (Object key : Collections.list(properties.keys())) {
            String name = String.valueOf(key);
            out.put(name, name.toLowerCase(Locale.ROOT).contains("psk") ? "(hidden)" : properties.get(key));
        }
        return out.toString();
    }

    /**
     * @return each service of the type as its {@code toString} shows it, with what each of the
     *     named methods without parameters answers
     */
    private List<String> services(String type, String... queries) {
        BundleContext context = framework.getBundleContext();
        try {
            ServiceReference<?>[] refs = context.getAllServiceReferences(type, null);
            List<String> out = new ArrayList<>();
            for (ServiceReference<?> ref : refs == null ? new ServiceReference<?>[0] : refs) {
                Object service = context.getService(ref);
                try {
                    StringBuilder line = new StringBuilder(String.valueOf(service));
                    Class<?> api = Arrays.stream(service.getClass().getInterfaces())
                        .filter(i -> i.getName().equals(type)).findFirst().orElseThrow();
                    for (String query : queries) {
                        line.append(", ").append(query).append(' ').append(api.getMethod(query).invoke(service));
                    }
                    out.add(line.toString());
                } finally {
                    context.ungetService(ref);
                }
            }
            return out;
        } catch (InvalidSyntaxException | ReflectiveOperationException | RuntimeException e) {
            return List.of("(cannot read the " + type + " services: " + e + ")");
        }
    }

    private static String state(int state) {
        return switch (state) {
            case Bundle.INSTALLED -> "INSTALLED";
            case Bundle.RESOLVED -> "RESOLVED";
            case Bundle.STARTING -> "STARTING";
            case Bundle.STOPPING -> "STOPPING";
            case Bundle.ACTIVE -> "ACTIVE";
            default -> "UNINSTALLED";
        };
    }

    /** @return each Polylink component and the state of each of its configurations */
    private List<String> components() {
        BundleContext context = framework.getBundleContext();
        String type = "org.osgi.service.component.runtime.ServiceComponentRuntime";
        ServiceReference<?>[] refs;
        try {
            refs = context.getAllServiceReferences(type, null);
        } catch (InvalidSyntaxException e) {
            throw new AssertionError(e);
        }
        if (refs == null) {
            return List.of("(no " + type + ": SCR is not running)");
        }
        ServiceReference<?> ref = refs[0];
        Object runtime = context.getService(ref);
        try {
            Class<?> api = Arrays.stream(runtime.getClass().getInterfaces()).filter(i -> i.getName().equals(type))
                .findFirst().orElseThrow();
            Method descriptions = api.getMethod("getComponentDescriptionDTOs", Bundle[].class);
            Method configurations = Arrays.stream(api.getMethods())
                .filter(m -> m.getName().equals("getComponentConfigurationDTOs")).findFirst().orElseThrow();
            Method enabled = Arrays.stream(api.getMethods())
                .filter(m -> m.getName().equals("isComponentEnabled")).findFirst().orElseThrow();
            List<String> out = new ArrayList<>();
            for (Object d : (Collection<?>) descriptions.invoke(runtime, (Object) new Bundle[0])) {
                String name = (String) field(d, "name");
                if (!name.startsWith("io.polylink")) {
                    continue;
                }
                List<String> states = new ArrayList<>();
                for (Object c : (Collection<?>) configurations.invoke(runtime, d)) {
                    Object failure = field(c, "failure");
                    states.add(STATES.getOrDefault((Integer) field(c, "state"), "state " + field(c, "state"))
                        + (failure == null ? "" : " (" + failure + ")"));
                }
                out.add(name + ": " + ((Boolean) enabled.invoke(runtime, d) ? states.isEmpty() ? "enabled, no "
                    + "configuration" : String.join(", ", states) : "disabled"));
            }
            return out;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return List.of("(cannot read the components: " + e + ")");
        } finally {
            context.ungetService(ref);
        }
    }

    private static Object field(Object dto, String name) throws ReflectiveOperationException {
        Field f = dto.getClass().getField(name);
        return f.get(dto);
    }
}
