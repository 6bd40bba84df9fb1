package io.polylink.embedded.internal;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The bundles this jar carries ({@code META-INF/polylink/bundle/}, listed in
 * {@code META-INF/polylink/bundles.list} at build time), copied out to a directory with their
 * repository index, so the framework runs them from files and the core can install a method on
 * demand from the same place.
 *
 * @param index the repository index beside the copied bundles
 * @param bundles every carried bundle, in the order of the list
 */
record Catalog(Path index, List<BundleJar> bundles) {

    private static final String CARRIED = "META-INF/polylink/bundle/";
    private static final String LIST = "META-INF/polylink/bundles.list";
    private static final String INDEX = "index.xml";

    Catalog {
        bundles = List.copyOf(bundles);
    }

    /**
     * Copies the carried bundles and their index into {@code directory}, replacing what an earlier
     * start left there (a kept storage directory may hold another build's), and reads their manifests.
     *
     * @throws IOException if a carried file cannot be read or written
     */
    static Catalog extract(Path directory) throws IOException {
        Files.createDirectories(directory);
        List<BundleJar> bundles = new ArrayList<>();
        for (String name : carriedNames()) {
            bundles.add(BundleJar.read(copy(name, directory)));
        }
        return new Catalog(copy(INDEX, directory), bundles);
    }

    private static List<String> carriedNames() throws IOException {
        String list;
        try (InputStream in = resource(LIST).openStream()) {
            list = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<String> names = new ArrayList<>();
        for (String name : list.split("[,\\s]+")) {
            if (!name.isEmpty()) {
                names.add(name);
            }
        }
        return names;
    }

    private static Path copy(String name, Path directory) throws IOException {
        Path target = directory.resolve(name);
        Path part = directory.resolve("." + name + ".part");
        try (InputStream in = resource(CARRIED + name).openStream()) {
            Files.copy(in, part, StandardCopyOption.REPLACE_EXISTING);
        }
        Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return target;
    }

    private static URL resource(String name) throws IOException {
        URL url = Catalog.class.getClassLoader().getResource(name);
        if (url == null) {
            throw new IOException(name + " is missing from the polylink-embedded jar on the class path; "
                + "the jar is damaged or was repackaged without its resources");
        }
        return url;
    }
}
