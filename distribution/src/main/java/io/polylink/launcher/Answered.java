package io.polylink.launcher;

/**
 * A command line the command answers without running: {@code --help} (status 0), or a bad option
 * (status 2). What to say has been printed.
 */
final class Answered extends Exception {

    private static final long serialVersionUID = 1L;

    private final int status;

    Answered(int status) {
        super(null, null, false, false);
        this.status = status;
    }

    /** @return the exit status */
    int status() {
        return status;
    }
}
