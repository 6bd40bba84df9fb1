package io.polylink.launcher;

import java.util.logging.LogManager;

/**
 * The JVM's LogManager in a node ({@code bin/polylink} names it in
 * {@code java.util.logging.manager}): the JDK's, except that logging stays open while the JVM
 * shuts down, until the node has stopped and calls {@link #close}. The JDK's manager closes every
 * handler from a shutdown hook of its own, which may run before the node's, and the records of
 * the node's orderly stop would go nowhere.
 */
public final class NodeLogManager extends LogManager {

    /** The JDK's shutdown hook. */
    private static final String SHUTDOWN_HOOK = LogManager.class.getName() + "$Cleaner";

    /** Made by java.util.logging when it first starts. */
    public NodeLogManager() {}

    @Override
    public void reset() {
        if (!Thread.currentThread().getClass().getName().equals(SHUTDOWN_HOOK)) {
            super.reset();
        }
    }

    /** Flushes and closes every handler: the last thing a stopping node does. */
    void close() {
        super.reset();
    }
}
