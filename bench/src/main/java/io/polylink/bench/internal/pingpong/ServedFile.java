package io.polylink.bench.internal.pingpong;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A raw shared-memory server's file, in a temporary directory of its own, and the thread that
 * serves it: the client maps the file by its path; closing stops the thread, waiting up to 5 s,
 * and deletes the directory.
 *
 * @param <T> what the file is mapped as
 */
final class ServedFile<T> implements AutoCloseable {

    /** Creates and maps the file. */
    @FunctionalInterface
    interface Creator<T> {
        T create(Path file) throws IOException;
    }

    /** Serves the mapped file on the server's thread until {@link ServedFile#running()} turns false. */
    @FunctionalInterface
    interface Loop<T> {
        void serve(T mapped, ServedFile<T> file);
    }

    private final TempDirectory directory;
    private final Path file;
    private final Thread thread;
    private volatile boolean running = true;

    /** @param name the implementation's name, for the directory and the thread */
    ServedFile(String name, Creator<T> creator, Loop<T> loop) throws IOException {
        directory = TempDirectory.create("polylink-bench-" + name + "-");
        T mapped;
        try {
            file = directory.path().resolve(name);
            mapped = creator.create(file);
        } catch (IOException | RuntimeException e) {
            directory.close();
            throw e;
        }
        thread = new Thread(() -> loop.serve(mapped, this), "pingpong-" + name + "-server");
        thread.setDaemon(true);
        thread.start();
    }

    /** @return the file's path, which the client maps */
    String path() {
        return file.toString();
    }

    /** @return whether the server's thread should go on */
    boolean running() {
        return running;
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(5_000);
        directory.close();
    }
}
