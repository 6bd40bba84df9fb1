package io.polylink.method.crypto.internal;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** Collects the lines a logger writes (System.Logger goes to java.util.logging by default). */
final class LogCapture extends Handler implements AutoCloseable {

    final List<String> lines = new CopyOnWriteArrayList<>();
    private final Logger logger;

    LogCapture(String name) {
        logger = Logger.getLogger(name);
        logger.addHandler(this);
    }

    @Override
    public void publish(LogRecord record) {
        lines.add(record.getMessage());
    }

    @Override
    public void flush() {}

    @Override
    public void close() {
        logger.removeHandler(this);
    }
}
