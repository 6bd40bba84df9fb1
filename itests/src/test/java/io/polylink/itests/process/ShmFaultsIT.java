package io.polylink.itests.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Context;
import io.polylink.Descriptor;
import io.polylink.DescriptorTable;
import io.polylink.Endpoint;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import io.polylink.method.shm.internal.connect.ShmAddress;
import io.polylink.method.shm.internal.segment.SegmentDirectory;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nodes in their own JVMs that are shown forged shm inboxes: nothing is mapped that another user
 * could cut short, and no thread dies.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ShmFaultsIT {

    private static final int SINK = 7;
    /** The threads of a node's methods that must outlive any fault of one connection or segment. */
    private static final Set<String> METHOD_THREADS = Set.of("polylink-shm-io", "polylink-shm-timer",
        "polylink-tcp-io");

    @TempDir
    Path temp;

    private final List<Driver> drivers = new ArrayList<>();
    private final List<NodeProcess> nodes = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        drivers.forEach(Driver::close);
        NodeProcess.closeAll(nodes);
    }

    private NodeProcess node(Path home, String name) throws Exception {
        NodeProcess n = NodeProcess.startWithShell(home, name, "-Xmx256m");
        nodes.add(n);
        return n;
    }

    private Driver driver(Path home, Map<String, Object> shm) {
        Driver d = new Driver(home, shm);
        drivers.add(d);
        return d;
    }

    /** The node's method threads run, and none of its threads ended with an uncaught throwable. */
    private static void unharmed(NodeProcess node) throws Exception {
        Set<String> threads = node.threads();
        assertTrue(threads.containsAll(METHOD_THREADS), "threads of the node: " + threads);
        assertTrue(node.log().lines().noneMatch(l -> l.startsWith("Exception in thread")), node.log());
    }

    @Test
    void aReplyStartpointNamingAnInboxInAFolderNotTrustedIsRefusedNeverMappedAndTcpGoesOn() throws Exception {
        Path home = Installation.copy(temp.resolve("home"));
        NodeProcess b = node(home, "b");
        Driver driver = driver(home, Map.of()); // tcp alone, as from another host
        Context me = driver.context();
        AtomicLong echoed = new AtomicLong();
        Endpoint sink = me.createEndpoint().register(SINK, (e, m) -> echoed.incrementAndGet());
        Startpoint echoAtB = driver.lookup("b");
        byte[] shmOfB = echoAtB.targets().get(0).table().entries().stream().filter(d -> d.method().equals("shm"))
            .findFirst().orElseThrow().address();

        // A valid-looking inbox in a folder of the attacker's, claiming to be the driver's own.
        Path folder = temp.resolve("attacker");
        Path forged = ForgedInbox.write(folder, me.id());
        byte[] lure = new ShmAddress(ShmAddress.decode(shmOfB).host(), folder, forged.getFileName().toString())
            .encode();
        Startpoint poisoned = sink.startpoint().editTable(t -> DescriptorTable.of(List.of(new Descriptor("shm", lure))));
        MessageBuffer message = me.allocateBuffer(256);

        echoAtB.send(Driver.ECHO, message.clear().putStartpoint(poisoned).putInt(SINK));
        String refused = "shm refused (segment directory " + folder + " is not one this context trusts (its own is "
            + Installation.shmDirectory(home) + "; add the other to trustedDirectories to map inboxes there))";
        Driver.await(() -> b.log().contains(refused), Duration.ofSeconds(30), b::log);
        assertEquals(List.of(), mappingsOf(b, folder), "b mapped the forged inbox");

        // Cut short, the forged file would fault whoever wrote into it: the thread that runs the echo.
        try (FileChannel file = FileChannel.open(forged, StandardOpenOption.WRITE)) {
            file.truncate(4096);
        }
        echoAtB.send(Driver.ECHO, message.clear().putStartpoint(poisoned).putInt(SINK));
        echoAtB.send(Driver.ECHO, message.clear().putStartpoint(sink.startpoint()).putInt(SINK));
        Driver.await(() -> echoed.get() == 1, Duration.ofSeconds(30), () -> "the healthy echo did not come back");
        assertEquals(List.of(), mappingsOf(b, folder), "b mapped the forged inbox");
        unharmed(b);
        assertEquals(List.of(SegmentDirectory.inboxName(echoAtB.targets().get(0).context())), segments(home),
            "files in b's segment directory");
    }

    /** @return the lines of the node's memory map naming a file under {@code folder} */
    private static List<String> mappingsOf(NodeProcess node, Path folder) throws IOException {
        return Files.readAllLines(Path.of("/proc", Long.toString(node.pid()), "maps")).stream()
            .filter(l -> l.contains(folder.toString())).toList();
    }

    private static List<String> segments(Path home) throws IOException {
        try (Stream<Path> files = Files.list(Installation.shmDirectory(home))) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
