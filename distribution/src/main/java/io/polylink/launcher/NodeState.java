package io.polylink.launcher;

import java.util.Map;

/**
 * What run/ says about one node.
 *
 * @param name the node's name
 * @param state whether it runs
 * @param pid the pid its pid file holds; 0 if none
 * @param facts what the node wrote about itself ({@link NameClaim}); empty if nothing
 */
record NodeState(String name, State state, long pid, Map<String, String> facts) {

    enum State {
        /** A live process holds the name. */
        RUNNING,
        /** A pid file is there, but the process that wrote it ended without removing it. */
        STALE,
        /** No pid file. */
        STOPPED
    }

    NodeState {
        facts = Map.copyOf(facts);
    }

    /** @return a fact the node wrote about itself, or {@code fallback} */
    String fact(String key, String fallback) {
        return facts.getOrDefault(key, fallback);
    }
}
