package io.polylink.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Descriptor;
import io.polylink.Polylink;
import io.polylink.PolylinkException;
import io.polylink.PolylinkSettings;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What close() and a failed start leave behind: no thread, no file, no listening socket. */
class CloseIT {

    @TempDir
    Path temp;

    @Test
    void closeLeavesNoThreadNoFileAndNoListeningSocket() throws Exception {
        Set<Thread> before = Set.copyOf(Thread.getAllStackTraces().keySet());
        Polylink a = Polylink.start(TestContexts.settings(temp, "a").transforms("lz4").build());
        Polylink b = Polylink.start(TestContexts.settings(temp, "b").build());
        int port;
        try {
            for (String stack : List.of("tcp", "shm")) {
                assertEquals("close " + stack, TestContexts.echo(a, TestContexts.lookup(a.context(), "b", stack), stack,
                    "close " + stack));
            }
            assertTrue(Files.list(TestContexts.shm(temp)).findAny().isPresent(), "the shm inboxes are there");
            port = tcpPort(b);
        } finally {
            a.close();
            b.close();
        }
        assertFalse(Files.exists(a.storage()), "a's storage directory is removed");
        assertFalse(Files.exists(b.storage()), "b's storage directory is removed");
        try (Stream<Path> left = Files.list(TestContexts.shm(temp))) {
            assertEquals(List.of(), left.toList(), "files left in the shm directory");
        }
        assertThrows(ConnectException.class, () -> connect(port), "b's tcp port still accepts connections");
        awaitNoNewThreads(before);
        a.close(); // a second close does nothing
    }

    @Test
    void anUnknownMethodFailsNamingTheKnownOnesAndLeavesNothing() {
        Set<Thread> before = Set.copyOf(Thread.getAllStackTraces().keySet());
        Path storage = temp.resolve("storage");
        PolylinkException e = assertThrows(PolylinkException.class, () -> Polylink.start(PolylinkSettings.builder()
            .methods("tcp", "udp").storage(storage).build()));
        assertEquals("no bundle provides the method 'udp'; there are shm, tcp. A third party's method comes as a "
            + "bundle: PolylinkSettings.builder().bundle(jar)", e.getMessage());
        assertFalse(Files.exists(storage), "the storage directory is removed");
        awaitNoNewThreads(before);
    }

    @Test
    void aStorageDirectoryWithOtherFilesIsRefusedAndKept() throws IOException {
        Path storage = Files.createDirectories(temp.resolve("mine"));
        Files.writeString(storage.resolve("notes.txt"), "the application's own");
        PolylinkException e = assertThrows(PolylinkException.class, () -> Polylink.start(PolylinkSettings.builder()
            .storage(storage).build()));
        assertTrue(e.getMessage().startsWith("storage directory " + storage + " holds files Polylink did not make"),
            e.getMessage());
        assertEquals("the application's own", Files.readString(storage.resolve("notes.txt")));
    }

    @Test
    void aKeptStorageDirectoryIsUsedAgain() throws Exception {
        PolylinkSettings settings = TestContexts.settings(temp, "kept").keepStorage(true).build();
        Path storage;
        try (Polylink first = Polylink.start(settings)) {
            storage = first.storage();
            Files.writeString(first.deployDirectory().resolve("note.txt"), "kept");
        }
        assertTrue(Files.isDirectory(storage), "kept after close");
        try (Polylink second = Polylink.start(settings)) {
            assertEquals("kept", Files.readString(second.deployDirectory().resolve("note.txt")));
        }
    }

    private static int tcpPort(Polylink p) {
        Descriptor tcp = p.context().descriptorTable().entries().stream().filter(d -> d.stack().equals("tcp"))
            .findFirst().orElseThrow(() -> new AssertionError("no tcp in " + p.context().descriptorTable()));
        // tcp's address: count:u8 (length:u8 ip:bytes port:u16){count}; see the tcp method's TcpAddress
        ByteBuffer address = ByteBuffer.wrap(tcp.address());
        address.position(2 + address.get(1));
        return address.getShort() & 0xffff;
    }

    private static void connect(int port) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
        }
    }

    /** Threads the runtime started end once the framework stopped; some finish a moment later. */
    static void awaitNoNewThreads(Set<Thread> before) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            Set<Thread> now = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && !before.contains(t) && !jdk(t)).collect(Collectors.toSet());
            if (now.isEmpty()) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("threads left 10 s after close: " + now.stream().map(Thread::getName).sorted()
                    .toList());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20)); // a thread's end has no event to wait on
        }
    }

    /** The JDK's own lazily started threads, which live as long as the JVM whoever started them. */
    private static boolean jdk(Thread t) {
        return t.getThreadGroup() != null && t.getThreadGroup().getName().equals("system")
            || t.getName().startsWith("ForkJoinPool.commonPool-") || t.getName().equals("process reaper");
    }
}
