package io.polylink.registry.zookeeper.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.testkit.Await;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The registry against Curator's in-process ZooKeeper server. */
class ZooKeeperNameRegistryTest {

    @TempDir
    Path temp;

    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
        Await.noThreads("polylink-zookeeper");
        assertEquals(List.of(), Await.threads("").stream().filter(t -> t.contains("SendThread")
            || t.contains("EventThread")).toList(), "ZooKeeper threads left");
    }

    private TestingServer server(int port, String data) throws Exception {
        TestingServer server = new TestingServer(port, temp.resolve(data).toFile(), true);
        open.add(server);
        return server;
    }

    private ZooKeeperNameRegistry registry(String connect, String group, int sessionMs) throws IOException {
        ZooKeeperNameRegistry r = ZooKeeperNameRegistry.open(new RegistrySettings(connect, "/polylink-test", group,
            Duration.ofMillis(sessionMs), Duration.ofMillis(3000), Duration.ofMillis(9000)));
        open.add(r);
        return r;
    }

    @Test
    void aNamePublishedInOneRegistryIsFoundInAnotherAndVanishesWithItsPublisher() throws Exception {
        TestingServer server = server(-1, "data");
        ZooKeeperNameRegistry publisher = registry(server.getConnectString(), "j1", 15000);
        ZooKeeperNameRegistry reader = registry(server.getConnectString(), "j1", 15000);
        ZooKeeperNameRegistry otherJob = registry(server.getConnectString(), "j2", 15000);

        publisher.publish("mpi.j1.0", "startpoint-of-rank-0");
        assertEquals(Optional.of("startpoint-of-rank-0"), reader.lookup("mpi.j1.0"));
        assertEquals(Optional.empty(), otherJob.lookup("mpi.j1.0"), "each job has a node of its own");
        publisher.publish("mpi.j1.0", "moved");
        assertEquals(Optional.of("moved"), reader.lookup("mpi.j1.0"));

        reader.publish("mpi.j1.0", "taken over");
        assertEquals(Optional.of("taken over"), publisher.lookup("mpi.j1.0"), "a name another context holds is taken");
        reader.unpublish("mpi.j1.0");
        assertEquals(Optional.empty(), publisher.lookup("mpi.j1.0"));

        publisher.publish("mpi.j1.1", "rank-1");
        publisher.close();
        assertEquals(Optional.empty(), reader.lookup("mpi.j1.1"), "the closed registry's names are gone at once");
    }

    @Test
    void namesArePublishedAgainWhenZooKeeperComesBackHavingForgottenThem() throws Exception {
        TestingServer first = server(-1, "first");
        int port = first.getPort();
        ZooKeeperNameRegistry publisher = registry(first.getConnectString(), "j1", 2000);
        publisher.publish("mpi.j1.0", "rank-0");

        first.close();
        TestingServer second = server(port, "second"); // a new server with no data: the session and the node are gone
        ZooKeeperNameRegistry reader = registry(second.getConnectString(), "j1", 15000);
        Await.until(() -> {
            try {
                return reader.lookup("mpi.j1.0").equals(Optional.of("rank-0"));
            } catch (IOException notYet) {
                return false;
            }
        }, Duration.ofSeconds(30), () -> "the name was not published again after ZooKeeper came back");
    }

    @Test
    void anEnsembleThatCannotBeReachedFailsACallClearlyWithinItsTimeout() throws Exception {
        TestingServer server = server(-1, "gone");
        String connect = server.getConnectString();
        server.close();
        ZooKeeperNameRegistry registry = registry(connect, "j1", 15000);
        long start = System.nanoTime();
        IOException e = assertThrows(IOException.class, () -> registry.publish("mpi.j1.0", "rank-0"));
        double seconds = (System.nanoTime() - start) / 1e9;
        assertTrue(e.getMessage().contains("ZooKeeper " + connect), e.getMessage());
        assertTrue(seconds < 15, "the call failed only after " + seconds + " s");
    }
}
