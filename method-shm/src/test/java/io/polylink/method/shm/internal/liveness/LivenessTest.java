package io.polylink.method.shm.internal.liveness;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.polylink.method.shm.internal.segment.InboxLayout;
import io.polylink.testkit.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LivenessTest {

    @Test
    void aProcessWithNoFileDescriptorLeftStillTellsALiveProcessFromAGoneOne() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "the process table is read from /proc");
        Process sleeper = new ProcessBuilder("sleep", "60").start();
        Process quick = new ProcessBuilder("true").start();
        try {
            assertTrue(quick.waitFor(10, TimeUnit.SECONDS), "'true' did not end");
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            // A small limit, so the child uses it up at once; a shell's ulimit sets it for the JVM.
            Process child = new ProcessBuilder("sh", "-c", "ulimit -n 256 && exec \"$0\" \"$@\"", java, "-cp",
                System.getProperty("java.class.path"), WithoutDescriptors.class.getName(),
                Long.toString(sleeper.pid()), Long.toString(quick.pid()))
                .redirectErrorStream(true).start();
            String out;
            try {
                assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child did not finish");
                out = new String(child.getInputStream().readAllBytes());
            } finally {
                child.destroyForcibly();
            }
            assertTrue(out.contains("Too many open files"), out);
            assertTrue(out.contains("alive " + sleeper.pid() + " true"), "a live process read as gone:\n" + out);
            assertTrue(out.contains("alive " + quick.pid() + " false"), "a gone process read as alive:\n" + out);
        } finally {
            sleeper.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aProcessStoppedBySignalIsStoppedAndAliveAndOneContinuedIsNeither() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "the process table is read from /proc");
        Process sleeper = new ProcessBuilder("sleep", "60").start();
        try {
            long pid = sleeper.pid();
            assertFalse(Liveness.stopped(pid), "a sleeping process is not stopped");
            signal("STOP", pid);
            Await.until(() -> Liveness.stopped(pid), Duration.ofSeconds(10), () -> "SIGSTOP not seen");
            assertTrue(Liveness.alive(pid, 0), "a stopped process is alive");
            signal("CONT", pid);
            Await.until(() -> !Liveness.stopped(pid), Duration.ofSeconds(10), () -> "SIGCONT not seen");
        } finally {
            sleeper.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        assertFalse(Liveness.stopped(sleeper.pid()), "a process that ended is not stopped (it is gone)");
        assertFalse(Liveness.stopped(ProcessHandle.current().pid()));
    }

    @Test
    void aClaimWithoutItsHeaderIsSkippedOnceAProducerIsGoneAndOnlyWhileNoneIsStopped() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "the process table is read from /proc");
        Process a = new ProcessBuilder("sleep", "60").start();
        Process b = new ProcessBuilder("sleep", "60").start();
        try {
            long[] slots = {InboxLayout.SLOT_FREE, InboxLayout.slotState(a.pid(), InboxLayout.SLOT_ACTIVE),
                InboxLayout.slotState(b.pid(), InboxLayout.SLOT_ACTIVE)};
            assertFalse(abandoned(slots), "both producers run: the claim's owner will finish it");

            b.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            assertTrue(abandoned(slots), "b is gone, and may have owned it");

            signal("STOP", a.pid());
            Await.until(() -> Liveness.stopped(a.pid()), Duration.ofSeconds(10), () -> "SIGSTOP not seen");
            assertFalse(abandoned(slots), "a is stopped and may own it: continued, it would write behind the receiver");

            signal("CONT", a.pid());
            Await.until(() -> !Liveness.stopped(a.pid()), Duration.ofSeconds(10), () -> "SIGCONT not seen");
            assertTrue(abandoned(slots), "a runs again, b is gone");
        } finally {
            a.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            b.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        assertTrue(abandoned(new long[] {InboxLayout.SLOT_FREE}), "no producer is left to finish it");
    }

    private static boolean abandoned(long[] slots) {
        return AbandonedClaims.headerless(slots.length, s -> slots[s]);
    }

    private static void signal(String name, long pid) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).inheritIO().start();
        assertTrue(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -" + name + " failed");
    }
}
