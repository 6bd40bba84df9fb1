package io.polylink.launcher;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.logging.ErrorManager;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.StreamHandler;

/**
 * The java.util.logging handler of a node's log file, rotated by size: once the file has reached
 * {@code limit} bytes, the next record goes to a new file, and the full one becomes
 * {@code FILE.1}, the one before {@code FILE.2}, and so on; {@code count} files are kept in all.
 * An existing file is continued, so a restarted node's log follows its previous run's. Every
 * record is flushed as it is written, so none is lost when the process is killed.
 *
 * <p>Configured in conf/logging.properties under this class's name: {@code file} (required),
 * {@code limit} (bytes; 0 never rotates; default 10 MiB), {@code count} (files
 * kept, 1 to 1000; default 5), and, as every handler, {@code level}, {@code formatter},
 * {@code encoding} and {@code filter}.
 */
public final class NodeLogFile extends StreamHandler {

    private static final String PREFIX = NodeLogFile.class.getName() + ".";

    private final Path file;
    private final long limit;
    private final int count;
    private Meter meter;

    /** Reads its settings from the LogManager; java.util.logging makes it from the configuration. */
    public NodeLogFile() {
        LogManager manager = LogManager.getLogManager();
        String name = manager.getProperty(PREFIX + "file");
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException(PREFIX + "file is not set: name the log file in logging.properties");
        }
        file = Path.of(name.strip()).toAbsolutePath().normalize();
        limit = setting(manager, "limit", 10L << 20, 0, Long.MAX_VALUE);
        count = (int) setting(manager, "count", 5, 1, 1000);
        try {
            Files.createDirectories(file.getParent());
        } catch (IOException e) {
            reportError("cannot make the folder of " + file, e, ErrorManager.OPEN_FAILURE);
        }
        open(true);
    }

    private static long setting(LogManager manager, String key, long fallback, long min, long max) {
        String text = manager.getProperty(PREFIX + key);
        if (text == null || text.isBlank()) {
            return fallback;
        }
        try {
            long value = Long.parseLong(text.strip());
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException notANumber) {
            // said below
        }
        throw new IllegalArgumentException(PREFIX + key + "=" + text.strip() + " in logging.properties: give a "
            + "whole number from " + min + " to " + max);
    }

    /** @return the file records go to now */
    public Path file() {
        return file;
    }

    @Override
    public synchronized void publish(LogRecord record) {
        if (!isLoggable(record)) {
            return;
        }
        if (limit > 0 && meter != null && meter.written >= limit) {
            rotate();
        }
        super.publish(record);
        flush();
    }

    /** Closes the full file, moves each file one generation older, and begins a new one. */
    private void rotate() {
        super.close();
        boolean moved = true;
        try {
            for (int generation = count - 1; generation > 0; generation--) {
                Path older = generation(generation - 1);
                if (Files.exists(older)) {
                    Files.move(older, generation(generation), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException e) {
            moved = false;
            reportError("cannot rotate " + file + "; writing on past its limit", e, ErrorManager.GENERIC_FAILURE);
        }
        open(!moved);
    }

    private Path generation(int n) {
        return n == 0 ? file : file.resolveSibling(file.getFileName() + "." + n);
    }

    private void open(boolean append) {
        try {
            OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                append ? StandardOpenOption.APPEND : StandardOpenOption.TRUNCATE_EXISTING);
            meter = new Meter(out, append ? Files.size(file) : 0);
            setOutputStream(meter);
        } catch (IOException e) {
            meter = null;
            reportError("cannot open " + file, e, ErrorManager.OPEN_FAILURE);
        }
    }

    /** Counts the bytes written to the file. */
    private static final class Meter extends FilterOutputStream {
        long written;

        Meter(OutputStream out, long written) {
            super(out);
            this.written = written;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            written++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            written += len;
        }
    }
}
