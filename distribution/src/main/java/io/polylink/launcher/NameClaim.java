package io.polylink.launcher;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * A running node's hold on its name ({@link RunFolder}): {@code run/NAME.pid}, locked by this
 * process, and {@code run/NAME.properties}, the facts the node keeps there for {@code polylink
 * status} and {@code polylink start}. Closing it removes both files and frees the name.
 */
final class NameClaim implements AutoCloseable {

    /** The node's pid. */
    static final String PID = "pid";
    /** {@link #STARTING}, {@link #UP} or {@link #STOPPING}. */
    static final String STATE = "state";
    static final String STARTING = "starting";
    static final String UP = "up";
    static final String STOPPING = "stopping";
    /** When the node started, ISO-8601. */
    static final String STARTED = "started";
    /** The context's id, while the context is registered. */
    static final String CONTEXT = "context";
    /** The context's methods, comma-separated, while the context is registered. */
    static final String METHODS = "methods";
    /** The log file, if the logging configuration names one. */
    static final String LOG = "log";
    /** Where the framework keeps its bundles, and whether that is kept across runs. */
    static final String STORAGE = "storage";

    private final RunFolder run;
    private final String name;
    private final FileChannel channel;
    private final long replacedPid;
    private final Map<String, String> facts = new TreeMap<>();
    private boolean closed;

    NameClaim(RunFolder run, String name, FileChannel channel, long replacedPid) {
        this.run = run;
        this.name = name;
        this.channel = channel;
        this.replacedPid = replacedPid;
    }

    String name() {
        return name;
    }

    /** @return the pid of a node that ended without removing its pid file, which this claim replaced; 0 if none */
    long replacedPid() {
        return replacedPid;
    }

    /** @return the pid file */
    Path pidFile() {
        return run.pidFile(name);
    }

    /** Sets facts and rewrites the facts file; after {@link #close} it does nothing. */
    synchronized void put(Map<String, String> changes) throws IOException {
        if (!closed) {
            facts.putAll(changes);
            run.writeFacts(name, facts);
        }
    }

    /** Removes facts and rewrites the facts file; after {@link #close} it does nothing. */
    synchronized void remove(String... keys) throws IOException {
        if (!closed) {
            for (String key : keys) {
                facts.remove(key);
            }
            run.writeFacts(name, facts);
        }
    }

    /** Removes the pid and facts files and frees the name. */
    @Override
    public synchronized void close() throws IOException {
        if (!closed) {
            closed = true;
            run.release(name, channel);
        }
    }
}
