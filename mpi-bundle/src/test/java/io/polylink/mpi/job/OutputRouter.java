package io.polylink.mpi.job;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * {@code System.out} or {@code System.err} while a job runs: what a rank's threads write (any
 * thread whose context class loader is the rank's) goes to that rank's buffer, everything else to
 * the stream it replaced.
 */
final class OutputRouter extends OutputStream {

    private final PrintStream original;
    private final ByteArrayOutputStream[] ranks;

    OutputRouter(PrintStream original, int size) {
        this.original = original;
        this.ranks = new ByteArrayOutputStream[size];
        for (int i = 0; i < size; i++) {
            ranks[i] = new ByteArrayOutputStream();
        }
    }

    private OutputStream target() {
        if (Thread.currentThread().getContextClassLoader() instanceof RankClassLoader r && r.rank() < ranks.length) {
            return ranks[r.rank()];
        }
        return original;
    }

    @Override
    public void write(int b) {
        OutputStream t = target();
        synchronized (t) {
            try {
                t.write(b);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    @Override
    public void write(byte[] b, int off, int len) {
        OutputStream t = target();
        synchronized (t) {
            try {
                t.write(b, off, len);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    String of(int rank) {
        synchronized (ranks[rank]) {
            return ranks[rank].toString(StandardCharsets.UTF_8);
        }
    }
}
