package io.polylink.testkit;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Collects the lines a logger writes; System.Logger, which Polylink logs through, goes to
 * java.util.logging by default.
 */
public final class LogCapture extends Handler implements AutoCloseable {

    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Logger logger;

    /** @param name the logger to listen to, e.g. {@code io.polylink.method.tcp} */
    public LogCapture(String name) {
        logger = Logger.getLogger(name);
        logger.addHandler(this);
    }

    /** @return the messages logged so far, oldest first */
    public List<String> lines() {
        return lines;
    }

    @Override
    public void publish(LogRecord record) {
        lines.add(record.getMessage());
    }

    @Override
    public void flush() {
        // nothing buffered
    }

    @Override
    public void close() {
        logger.removeHandler(this);
    }
}
