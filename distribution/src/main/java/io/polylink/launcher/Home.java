package io.polylink.launcher;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/** The installed distribution: the folder holding bin/, conf/, bundle/ and the rest. */
record Home(Path root) {

    /** @throws IllegalStateException if the launcher was not started by bin/polylink */
    static Home fromSystemProperty() {
        String home = System.getProperty("polylink.home");
        if (home == null || home.isBlank()) {
            throw new IllegalStateException("polylink.home is not set; start Polylink with bin/polylink");
        }
        return new Home(Path.of(home).toAbsolutePath().normalize());
    }

    Path conf() {
        return root.resolve("conf");
    }

    Path bundles() {
        return root.resolve("bundle");
    }

    /** Framework storage of running nodes that keep no state, one folder per run. */
    Path work() {
        return root.resolve("work");
    }

    /** Framework storage of nodes started with --keep-state, one folder per name, kept across runs. */
    Path state() {
        return root.resolve("state");
    }

    Path repo() {
        return root.resolve("repo");
    }

    Path lib() {
        return root.resolve("lib");
    }

    Path logs() {
        return root.resolve("logs");
    }

    RunFolder run() {
        return new RunFolder(root.resolve("run"));
    }

    /** @return {@code value} with {@code ${polylink.home}} replaced by this folder */
    String expand(String value) {
        return value.replace("${polylink.home}", root.toString());
    }

    /** @return {@code conf}/framework.properties with {@code ${polylink.home}} replaced */
    Map<String, String> frameworkProperties(Path conf) throws IOException {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(conf.resolve("framework.properties"), StandardCharsets.UTF_8)) {
            p.load(in);
        }
        Map<String, String> out = new HashMap<>();
        for (String key : p.stringPropertyNames()) {
            out.put(key, expand(p.getProperty(key)));
        }
        return out;
    }
}
