package io.polylink.launcher;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.Properties;
import java.util.logging.ConsoleHandler;
import java.util.logging.LogManager;
import java.util.logging.Logger;

/**
 * A node's logging: conf/logging.properties, with {@code ${polylink.home}} and
 * {@code ${polylink.name}} filled in, given to java.util.logging before anything logs. Polylink's
 * bundles log through System.Logger, which the JDK sends there. Without the file the JDK's
 * defaults stay: records of INFO and above on the console.
 */
final class NodeLog {

    static final String FILE = "logging.properties";

    private NodeLog() {}

    /** @return the log file the configuration writes, if it names one */
    static Optional<Path> configure(Home home, Path conf, String name) throws IOException {
        Path file = conf.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        Properties read = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            read.load(in);
        }
        Properties filled = new Properties();
        for (String key : read.stringPropertyNames()) {
            filled.setProperty(key, home.expand(read.getProperty(key)).replace("${polylink.name}", name));
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        filled.store(bytes, null);
        LogManager.getLogManager().readConfiguration(new ByteArrayInputStream(bytes.toByteArray()));
        Logger root = Logger.getLogger("");
        if (root.getHandlers().length == 0) {
            // java.util.logging has said above why a handler could not be made; records must go somewhere.
            System.err.println("polylink node " + name + ": " + file + " gives no handler that works; logging to "
                + "the console");
            root.addHandler(new ConsoleHandler());
        }
        return Arrays.stream(root.getHandlers())
            .filter(NodeLogFile.class::isInstance)
            .map(h -> ((NodeLogFile) h).file())
            .findFirst();
    }

    /** Flushes and closes the handlers, once the node has stopped; records after this go nowhere. */
    static void close() {
        if (LogManager.getLogManager() instanceof NodeLogManager manager) {
            manager.close();
        }
    }
}
