package io.polylink.itests.embedding;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An unpacked Apache Karaf distribution of a test's own, and the edits to its {@code etc/} that the
 * docs tell a user to make, or that keep it to this machine: ports of its own, artifacts from a
 * Maven repository the test fills, no remote repository.
 */
final class KarafHome {

    private static final Pattern MVN_URL = Pattern.compile("mvn:([^/<\\s]+)/([^/<\\s]+)/([^/<\\s]+)");

    private final Path root;

    private KarafHome(Path root) {
        this.root = root;
    }

    /** Unpacks {@code distribution} (a .tar.gz) into {@code directory} with tar, which keeps the scripts executable. */
    static KarafHome unpack(Path distribution, Path directory) throws IOException, InterruptedException {
        Files.createDirectories(directory);
        Process tar = new ProcessBuilder("tar", "-xzf", distribution.toString(), "-C", directory.toString())
            .redirectErrorStream(true).start();
        String output = new String(tar.getInputStream().readAllBytes());
        if (!tar.waitFor(2, TimeUnit.MINUTES) || tar.exitValue() != 0) {
            throw new AssertionError("tar could not unpack " + distribution + ": " + output);
        }
        try (var entries = Files.list(directory)) {
            List<Path> roots = entries.filter(Files::isDirectory).toList();
            if (roots.size() != 1) {
                throw new AssertionError(distribution + " unpacked into " + roots + ", not one folder");
            }
            return new KarafHome(roots.get(0));
        }
    }

    Path root() {
        return root;
    }

    Path etc(String file) {
        return root.resolve("etc").resolve(file);
    }

    Path log() {
        return root.resolve("data/log/karaf.log");
    }

    /**
     * Fills {@code repository} (a Maven repository's layout) with every {@code mvn:} artifact the
     * features file names, and the features file itself, and makes it the only place Karaf resolves
     * {@code mvn:} URLs from besides its own system/ folder.
     */
    void repository(Path features, Coordinates featuresCoordinates, Path repository) throws IOException {
        Matcher m = MVN_URL.matcher(Files.readString(features));
        while (m.find()) {
            Coordinates c = new Coordinates(m.group(1), m.group(2), m.group(3));
            copy(c.file(), c.layout(repository, null, "jar"));
        }
        copy(features, featuresCoordinates.layout(repository, "features", "xml"));
        set(etc("org.ops4j.pax.url.mvn.cfg"), "org.ops4j.pax.url.mvn.localRepository", repository.toString());
        set(etc("org.ops4j.pax.url.mvn.cfg"), "org.ops4j.pax.url.mvn.repositories", "");
    }

    private static void copy(Path from, Path to) throws IOException {
        Files.createDirectories(to.getParent());
        Files.copy(from, to);
    }

    /** Appends {@code value} to the comma-separated list of {@code key} in a properties file. */
    static void append(Path file, String key, String value) throws IOException {
        List<String> lines = Files.readAllLines(file);
        int at = start(lines, key);
        if (at < 0) {
            throw new AssertionError(file + " has no " + key);
        }
        int last = at;
        while (lines.get(last).stripTrailing().endsWith("\\")) {
            last++;
        }
        lines.set(last, lines.get(last).stripTrailing() + ", \\");
        lines.add(last + 1, "    " + value);
        Files.write(file, lines);
    }

    /** Sets {@code key} in a properties file, replacing its value (continuation lines too) if it has one. */
    static void set(Path file, String key, String value) throws IOException {
        List<String> lines = Files.exists(file) ? new ArrayList<>(Files.readAllLines(file)) : new ArrayList<>();
        int at = start(lines, key);
        if (at >= 0) {
            while (lines.get(at).stripTrailing().endsWith("\\")) {
                lines.remove(at);
            }
            lines.remove(at);
        }
        lines.add(key + " = " + value);
        Files.write(file, lines);
    }

    private static int start(List<String> lines, String key) {
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i).strip();
            if (l.startsWith(key) && l.substring(key.length()).strip().startsWith("=")) {
                return i;
            }
        }
        return -1;
    }
}
