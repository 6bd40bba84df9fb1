package io.polylink.itests.process;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;

/** A private copy of the unpacked distribution for one test, with tcp on loopback and its own shm directory. */
final class Installation {

    private Installation() {}

    static Path dist() {
        String dist = System.getProperty("polylink.dist");
        if (dist == null || !Files.isDirectory(Path.of(dist))) {
            throw new IllegalStateException("polylink.dist (" + dist + ") is not the unpacked distribution; "
                + "run these tests through Maven (mvn verify)");
        }
        return Path.of(dist);
    }

    /** Copies the distribution to {@code into} and binds tcp to 127.0.0.1 there. */
    static Path copy(Path into) throws IOException {
        Path source = dist();
        try (Stream<Path> all = Files.walk(source)) {
            for (Path p : all.toList()) {
                Path target = into.resolve(source.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
        set(into, "io.polylink.method.tcp.cfg", "bindAddress", "127.0.0.1");
        set(into, "io.polylink.method.shm.cfg", "directory", shmDirectory(into).toString());
        return into;
    }

    /** @return where the installation's shm segments live: inside it, so a test sees exactly its own */
    static Path shmDirectory(Path home) {
        return home.resolve("shm");
    }

    /** @return a port of 127.0.0.1 free just now, for a method that must come back at the same address */
    static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }

    /** Appends {@code key=value} to a conf file (a later line wins in a .cfg). */
    static void set(Path home, String file, String key, String value) throws IOException {
        Files.writeString(home.resolve("conf").resolve(file), "\n" + key + "=" + value + "\n",
            StandardOpenOption.APPEND, StandardOpenOption.CREATE);
    }
}
