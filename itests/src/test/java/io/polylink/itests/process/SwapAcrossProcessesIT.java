package io.polylink.itests.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Descriptor;
import io.polylink.Endpoint;
import io.polylink.MessageBuffer;
import io.polylink.PolylinkException;
import io.polylink.Startpoint;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.method.compress.internal.Lz4Transform;
import io.polylink.method.shm.internal.ShmMethod;
import io.polylink.method.tcp.internal.TcpMethod;
import io.polylink.spi.CommunicationMethod;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Eight senders in this JVM send flat out to a Felix node in its own JVM, which echoes every RSR
 * back; meanwhile this JVM's context has its tcp method, its shm method and its lz4 transform
 * replaced by new instances 100 times each — what a bundle update does to the core: the old
 * service leaves, a new one arrives. The links move off and back, in both directions, and every
 * accepted RSR must come back exactly once and in order per sender.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class SwapAcrossProcessesIT {

    private static final int SINK = 7;
    private static final int SENDERS = 8;
    private static final int CYCLES = 100;
    /** Echoes to wait for after each step, so every state of a cycle carries traffic. */
    private static final int PROGRESS = 100;

    @TempDir
    Path temp;

    private final List<NodeProcess> nodes = new ArrayList<>();
    private Driver driver;
    private volatile String phase = "start";

    @AfterEach
    void cleanUp() {
        if (driver != null) {
            driver.close();
        }
        NodeProcess.closeAll(nodes);
    }

    @Test
    void everyAcceptedRsrComesBackOnceAndInOrderWhileMethodsAndLz4AreReplaced() throws Exception {
        Path home = Installation.copy(temp.resolve("home"));
        nodes.add(NodeProcess.start(home, "b", "-Xmx256m"));
        // A fixed port and the inbox named after the context: a replaced method comes back at the
        // same address, so the peer's copy of this context's table stays right.
        int port = Installation.freePort();
        Map<String, Object> tcp = Map.of("port", Integer.toString(port), "connectTimeoutMs", "2000");
        Map<String, Object> shm = Map.of("directory", Installation.shmDirectory(home).toString());
        driver = new Driver(home, shm, tcp);
        EmbeddedContext here = driver.embedded();
        Lz4Transform firstLz4 = new Lz4Transform(Map.of());
        here.add(firstLz4);

        AtomicLongArray echoed = new AtomicLongArray(SENDERS);
        List<String> problems = new CopyOnWriteArrayList<>();
        Endpoint sink = driver.context().createEndpoint().register(SINK, (e, m) -> {
            int stream = m.getInt();
            long seq = m.getLong();
            long expected = echoed.get(stream);
            if (seq != expected && problems.size() < 20) {
                problems.add(phase + ": sender " + stream + ": expected " + expected + ", got " + seq
                    + (seq < expected ? " (duplicate)" : " (lost " + (seq - expected) + ")"));
            }
            echoed.set(stream, Math.max(expected, seq + 1));
        });
        Startpoint atB = driver.lookup("b");
        Descriptor bTcp = atB.targets().get(0).table().entries().stream()
            .filter(d -> d.method().equals("tcp")).findFirst().orElseThrow();

        try (Senders senders = new Senders(sink, echoed)) {
            // Each phase sends over the stack being replaced while it is there; replies come back
            // over whatever the node finds in this context's table.
            senders.start(atB.copy().editTable(t -> t.prefer("tcp")));
            senders.awaitProgress(1000);
            Swap tcpSwap = new Swap("tcp", () -> new TcpMethod(Map.of("bindAddress", "127.0.0.1",
                "port", Integer.toString(port), "connectTimeoutMs", "2000")), 50, here);
            phase = "tcp";
            tcpSwap.cycles(senders);

            senders.switchTo(atB.copy().editTable(t -> t.prefer("shm")));
            Swap shmSwap = new Swap("shm", () -> new ShmMethod(shm), 20, here);
            phase = "shm";
            shmSwap.cycles(senders);

            senders.switchTo(atB.copy().editTable(t -> t.insert(0,
                new Descriptor("lz4/" + bTcp.stack(), bTcp.address()))));
            Lz4Swap lz4Swap = new Lz4Swap(here, firstLz4);
            phase = "lz4";
            lz4Swap.cycles(senders);

            senders.stop();
            Driver.await(() -> senders.allEchoed(), Duration.ofSeconds(60), senders::summary);
            System.out.println("swap across processes: " + CYCLES + " cycles each of tcp, shm and lz4 in the "
                + "driver; " + senders.summary() + "; longest stall " + senders.longestStallMs() + " ms");
            assertEquals(List.of(), problems, () -> "the driver's links:\n  " + String.join("\n  ", here.links())
                + "\nsends refused: " + senders.failures + "\nthe node's warnings:\n  " + String.join("\n  ",
                lastWarnings(nodes.get(0).log(), 40)));
            // While one method is out the other carries everything, but its connection may just
            // then be refused (two sides dialling at once under load): such a send fails, says
            // why, and is not counted as sent. Rare; none may be a lost or repeated RSR.
            System.out.println("sends refused during the swaps: " + senders.failures);
            assertTrue(senders.failures.size() <= 5, senders.failures::toString);
            for (PolylinkException f : senders.failures) {
                assertTrue(f.getMessage().startsWith("no applicable method for endpoint"), f.toString());
            }
        }
    }

    /** The last warnings of a log: the swap that went wrong is near its end. */
    private static List<String> lastWarnings(String log, int count) {
        List<String> warnings = log.lines().filter(l -> l.contains("WARN") || l.contains("SEVERE")).toList();
        return warnings.subList(Math.max(0, warnings.size() - count), warnings.size());
    }

    /** Replaces one method of the driver by a fresh instance, again and again, under traffic. */
    private record Swap(String name, Supplier<CommunicationMethod> fresh, int preference,
                        EmbeddedContext here) {
        void cycles(Senders senders) {
            CommunicationMethod current = here.method(name);
            for (int i = 0; i < CYCLES; i++) {
                here.remove(current);
                senders.awaitProgress(PROGRESS);
                current = fresh.get();
                here.add(current, preference);
                senders.awaitProgress(PROGRESS);
            }
        }
    }

    /** Removes and adds the lz4 transform, again and again, under traffic. */
    private record Lz4Swap(EmbeddedContext here, Lz4Transform first) {
        void cycles(Senders senders) {
            Lz4Transform current = first;
            for (int i = 0; i < CYCLES; i++) {
                here.remove(current);
                senders.awaitProgress(PROGRESS);
                current = new Lz4Transform(Map.of());
                here.add(current);
                senders.awaitProgress(PROGRESS);
            }
        }
    }

    /** Sender threads, each a numbered stream of echo requests through its own startpoint. */
    private final class Senders implements AutoCloseable {
        final AtomicLongArray accepted = new AtomicLongArray(SENDERS);
        final List<PolylinkException> failures = new CopyOnWriteArrayList<>();
        private final Endpoint sink;
        private final AtomicLongArray echoed;
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final List<Thread> threads = new ArrayList<>();
        private volatile Startpoint[] targets;
        /** Senders hold it shared while they send; a switch of tables takes it whole. */
        private final ReentrantReadWriteLock switching = new ReentrantReadWriteLock();
        private volatile long lastEcho = System.nanoTime();
        private volatile long longestStall;

        Senders(Endpoint sink, AtomicLongArray echoed) {
            this.sink = sink;
            this.echoed = echoed;
        }

        void start(Startpoint target) {
            retarget(target);
            for (int i = 0; i < SENDERS; i++) {
                int stream = i;
                Thread t = new Thread(() -> run(stream), "test-swap-sender-" + i);
                threads.add(t);
                t.start();
            }
        }

        /**
         * Moves the senders to another table, after everything sent under the old one came back:
         * another table is another link, and two links have no order between them. A send still
         * under way on the old link must finish first, or it lands after the first sends on the
         * new one; a pause flag alone let a sender that had just read it go on sending.
         */
        void switchTo(Startpoint target) throws InterruptedException {
            if (!switching.writeLock().tryLock(30, TimeUnit.SECONDS)) {
                throw new AssertionError("a sender stayed in one send for 30 s: " + summary());
            }
            try {
                Driver.await(this::allEchoed, Duration.ofSeconds(30), () -> "before switching tables: " + summary());
                retarget(target);
            } finally {
                switching.writeLock().unlock();
            }
        }

        /** Each sender gets its own copy: a startpoint's routes are its own. */
        private void retarget(Startpoint target) {
            Startpoint[] copies = new Startpoint[SENDERS];
            for (int i = 0; i < SENDERS; i++) {
                copies[i] = target.copy();
            }
            targets = copies;
        }

        private void run(int stream) {
            MessageBuffer m = driver.context().allocateBuffer(256);
            Startpoint back = sink.startpoint();
            byte[] body = new byte[64];
            while (running.get()) {
                // Bounded in flight, so the senders measure the swap rather than the node's queue.
                if (accepted.get(stream) - echoed.get(stream) > 2000) {
                    Thread.onSpinWait();
                    continue;
                }
                switching.readLock().lock();
                try {
                    targets[stream].send(Driver.ECHO, m.clear().putStartpoint(back).putInt(SINK)
                        .putInt(stream).putLong(accepted.get(stream)).putRaw(body, 0, body.length));
                    accepted.incrementAndGet(stream);
                } catch (PolylinkException e) {
                    if (failures.size() < 20) {
                        failures.add(e);
                    }
                } finally {
                    switching.readLock().unlock();
                }
            }
        }

        long totalEchoed() {
            long sum = 0;
            for (int i = 0; i < SENDERS; i++) {
                sum += echoed.get(i);
            }
            return sum;
        }

        /** Waits for {@code count} more echoes, noting the longest wait between two checks. */
        void awaitProgress(long count) {
            long from = totalEchoed();
            long seen = from;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (seen < from + count) {
                long now = System.nanoTime();
                long total = totalEchoed();
                if (total != seen) {
                    seen = total;
                    longestStall = Math.max(longestStall, now - lastEcho);
                    lastEcho = now;
                }
                if (now - deadline > 0) {
                    throw new AssertionError("echoes stalled at " + seen + ": " + summary() + "; failures " + failures);
                }
                LockSupport.parkNanos(100_000);
            }
        }

        long longestStallMs() {
            return TimeUnit.NANOSECONDS.toMillis(longestStall);
        }

        boolean allEchoed() {
            for (int i = 0; i < SENDERS; i++) {
                if (echoed.get(i) != accepted.get(i)) {
                    return false;
                }
            }
            return true;
        }

        String summary() {
            long sent = 0;
            for (int i = 0; i < SENDERS; i++) {
                sent += accepted.get(i);
            }
            return "accepted " + sent + ", echoed in order " + totalEchoed();
        }

        void stop() throws InterruptedException {
            running.set(false);
            for (Thread t : threads) {
                t.join(10_000);
            }
            for (Thread t : threads) {
                assertTrue(!t.isAlive(), t.getName() + " did not stop");
            }
        }

        @Override
        public void close() throws InterruptedException {
            stop();
        }
    }
}
