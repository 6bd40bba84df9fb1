package io.polylink.embedded.internal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A bundle jar on disk and what its manifest says Polylink needs to know.
 *
 * @param path the jar
 * @param symbolicName its Bundle-SymbolicName, without directives
 * @param methods the methods it declares ({@code polylink.method} capabilities)
 * @param transforms the transforms it declares ({@code polylink.transform} capabilities)
 */
record BundleJar(Path path, String symbolicName, List<String> methods, List<String> transforms) {

    private static final Pattern METHOD = capability("polylink.method");
    private static final Pattern TRANSFORM = capability("polylink.transform");

    BundleJar {
        methods = List.copyOf(methods);
        transforms = List.copyOf(transforms);
    }

    /** @throws IOException naming the jar if it cannot be read or is not a bundle */
    static BundleJar read(Path jar) throws IOException {
        Attributes main;
        try (JarFile file = new JarFile(jar.toFile())) {
            main = file.getManifest() == null ? null : file.getManifest().getMainAttributes();
        } catch (IOException e) {
            throw new IOException("cannot read the bundle " + jar + ": " + e, e);
        }
        String name = main == null ? null : main.getValue("Bundle-SymbolicName");
        if (name == null) {
            throw new IOException(jar + " is not an OSGi bundle: its manifest has no Bundle-SymbolicName");
        }
        String capabilities = main.getValue("Provide-Capability");
        return new BundleJar(jar, name.split(";", 2)[0].strip(), names(METHOD, capabilities),
            names(TRANSFORM, capabilities));
    }

    /** @return whether it is neither a method nor a transform: the runtime itself, or a library */
    boolean isFoundation() {
        return methods.isEmpty() && transforms.isEmpty();
    }

    private static Pattern capability(String namespace) {
        String n = Pattern.quote(namespace);
        return Pattern.compile("(?:^|,)\\s*" + n + "\\s*;[^,]*?" + n + "\\s*=\\s*\"?([a-z0-9-]+)");
    }

    private static List<String> names(Pattern pattern, String header) {
        List<String> out = new ArrayList<>();
        if (header != null) {
            Matcher m = pattern.matcher(header);
            while (m.find()) {
                out.add(m.group(1));
            }
        }
        return out;
    }
}
