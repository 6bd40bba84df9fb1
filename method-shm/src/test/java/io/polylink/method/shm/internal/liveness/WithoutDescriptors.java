package io.polylink.method.shm.internal.liveness;

import java.io.FileInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A process that uses up its file descriptors, then says what {@link Liveness} tells of the
 * processes named on its command line: {@code alive <pid> <true|false>} per line. Run by {@link
 * LivenessTest} in a JVM of its own, under a small descriptor limit.
 */
public final class WithoutDescriptors {

    private WithoutDescriptors() {}

    public static void main(String[] pids) throws IOException {
        for (String pid : pids) {
            Liveness.alive(Long.parseLong(pid), 0); // loads every class it needs while files can still be opened
        }
        List<FileInputStream> held = new ArrayList<>();
        try {
            while (true) {
                held.add(new FileInputStream("/dev/null"));
            }
        } catch (IOException exhausted) {
            System.out.println("exhausted after " + held.size() + ": " + exhausted.getMessage());
        }
        StringBuilder said = new StringBuilder();
        for (String pid : pids) {
            said.append("alive ").append(pid).append(' ').append(Liveness.alive(Long.parseLong(pid), 0)).append('\n');
        }
        for (FileInputStream f : held) {
            f.close();
        }
        System.out.print(said);
    }
}
