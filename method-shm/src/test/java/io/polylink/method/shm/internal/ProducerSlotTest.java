package io.polylink.method.shm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.polylink.ContextId;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.method.shm.internal.segment.InboxLayout;
import io.polylink.method.shm.internal.segment.Mapped;
import io.polylink.method.shm.internal.segment.Segment;
import io.polylink.testkit.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The receiver gives back the inbox slot of a producer whose process is gone, and only then. */
class ProducerSlotTest {

    @TempDir
    Path directory;

    @Test
    void aProducerSlotIsKeptWhileItsProcessRunsAndFreedOnceItIsGone() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "the process table is read from /proc");
        try (EmbeddedContext receiver = EmbeddedContext.open()
                .add(new ShmMethod(Map.of("directory", directory.toString())), 20)) {
            Segment inbox = Mapped.inbox(onlyInbox());
            Process producer = new ProcessBuilder("sleep", "60").start();
            try {
                // A slot as another process leaves it: taken, with that process's id.
                int slot = inbox.claimSlot(1, ContextId.random(), new byte[0]);
                long taken = InboxLayout.slotState(producer.pid(), InboxLayout.SLOT_ACTIVE);
                assertTrue(inbox.casSlotState(slot, inbox.slotState(slot), taken));

                // The receiver's heartbeat counts time on its side: three beats span at least two ticks.
                long beats = inbox.heartbeatCount();
                Await.until(() -> inbox.heartbeatCount() >= beats + 3, Duration.ofSeconds(10),
                    () -> "the receiver's heartbeat stood still at " + inbox.heartbeatCount());
                assertEquals(taken, inbox.slotState(slot), "the slot of a producer that runs stays taken");

                producer.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                Await.until(() -> inbox.slotState(slot) == InboxLayout.SLOT_FREE, Duration.ofSeconds(10),
                    () -> "slot " + slot + " of a gone producer is still " + inbox.slotState(slot));
            } finally {
                producer.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private Path onlyInbox() throws Exception {
        try (Stream<Path> files = Files.list(directory)) {
            List<Path> inboxes = files.filter(p -> p.toString().endsWith(".inbox")).toList();
            assertEquals(1, inboxes.size(), "inboxes in " + directory + ": " + inboxes);
            return inboxes.get(0);
        }
    }
}
