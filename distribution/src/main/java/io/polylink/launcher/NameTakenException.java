package io.polylink.launcher;

/** A running node holds the name another node asked for: it is that node's until it stops. */
final class NameTakenException extends Exception {

    private static final long serialVersionUID = 1L;

    private final long pid;

    NameTakenException(String name, long pid) {
        super("node " + name + " is already running" + (pid > 0 ? " (pid " + pid + ")" : "")
            + ": stop it first (polylink stop --name " + name + ") or choose another --name");
        this.pid = pid;
    }

    /** @return the running node's pid; 0 if it has not written it yet */
    long pid() {
        return pid;
    }
}
