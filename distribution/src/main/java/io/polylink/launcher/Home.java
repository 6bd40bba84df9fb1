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

    Path work() {
        return root.resolve("work");
    }

    Path repo() {
        return root.resolve("repo");
    }

    Path lib() {
        return root.resolve("lib");
    }

    /** @return {@code conf}/framework.properties with {@code ${polylink.home}} replaced */
    Map<String, String> frameworkProperties(Path conf) throws IOException {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(conf.resolve("framework.properties"), StandardCharsets.UTF_8)) {
            p.load(in);
        }
        Map<String, String> out = new HashMap<>();
        for (String key : p.stringPropertyNames()) {
            out.put(key, p.getProperty(key).replace("${polylink.home}", root.toString()));
        }
        return out;
    }
}
