package io.polylink.launcher.mpirun;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Copies one output stream of a rank to mpirun's, a whole line at a time, each line starting with
 * a prefix; the lines of several pumps on one sink never mix. The bytes pass unchanged, whatever
 * their encoding. Runs on a thread of its own until the rank's stream ends.
 */
final class LinePump implements Runnable {

    private final InputStream in;
    private final byte[] prefix;
    private final PrintStream sink;
    private final Thread thread;

    /**
     * @param name the thread's name
     * @param sink System.out or System.err: lines are written under its lock
     */
    LinePump(String name, InputStream in, String prefix, PrintStream sink) {
        this.in = in;
        this.prefix = prefix.getBytes(StandardCharsets.UTF_8);
        this.sink = sink;
        this.thread = new Thread(this, name);
        thread.setDaemon(true);
    }

    LinePump start() {
        thread.start();
        return this;
    }

    @Override
    public void run() {
        byte[] chunk = new byte[8192];
        ByteArrayOutputStream line = new ByteArrayOutputStream(256);
        try (in) {
            for (int n = in.read(chunk); n >= 0; n = in.read(chunk)) {
                int from = 0;
                for (int i = 0; i < n; i++) {
                    if (chunk[i] == '\n') {
                        line.write(chunk, from, i + 1 - from);
                        emit(line);
                        from = i + 1;
                    }
                }
                line.write(chunk, from, n - from);
            }
        } catch (IOException ended) {
            // the rank's end closed the pipe: what came is written below
        }
        if (line.size() > 0) {
            line.write('\n');
            emit(line);
        }
    }

    /**
     * Writes the prefix and the line in one write: the sink's lock keeps pumps on one stream apart,
     * and one write keeps them apart from the other stream's where a reader merges stdout and
     * stderr into one pipe.
     */
    private void emit(ByteArrayOutputStream line) {
        byte[] whole = new byte[prefix.length + line.size()];
        System.arraycopy(prefix, 0, whole, 0, prefix.length);
        System.arraycopy(line.toByteArray(), 0, whole, prefix.length, line.size());
        synchronized (sink) {
            sink.write(whole, 0, whole.length);
        }
        line.reset();
    }

    /**
     * Waits until the stream ended and every line was written.
     *
     * @return whether it did within {@code millis}
     */
    boolean await(long millis) throws InterruptedException {
        thread.join(Math.max(1, millis));
        return !thread.isAlive();
    }
}
