package io.polylink.method.shm.internal.ring;

import static io.polylink.method.shm.internal.segment.InboxLayout.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.ContextId;
import io.polylink.method.shm.internal.segment.Segment;
import io.polylink.method.shm.internal.segment.SegmentException;
import io.polylink.method.shm.internal.segment.TrustedDirectories;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ring on its own: one producer and the consumer in this thread, time given by the test. */
class InboxTest {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @TempDir
    Path directory;

    private final Handler handler = new Handler();
    private Inbox inbox;
    private Outbox out;
    /** The producer slot {@link #out} took. */
    private int slot;

    @BeforeEach
    void open() throws Exception {
        Segment segment = new TrustedDirectories(directory, List.of()).create("inbox", new ContextId(1, 2), 4, MIN_RING,
            1, 0);
        inbox = new Inbox(segment, 1000);
        out = new Outbox(segment, 7, new ContextId(3, 4), new byte[0]);
        slot = 0;
        while (segment.slotSession(slot) != 7) {
            slot++;
        }
    }

    @AfterEach
    void close() {
        out.close();
    }

    /** Records what the consumer is told; {@link #abandoned} answers as set. */
    private static final class Handler implements Inbox.RecordHandler {
        final List<String> seen = new ArrayList<>();
        boolean abandoned;
        int asked;

        @Override
        public void onRecord(int type, int flags, int slot, ByteBuffer body) {
            seen.add("record " + body.getLong(body.position()));
        }

        @Override
        public void onSkipped(int slot, int bytes) {
            seen.add("skipped " + bytes + " of slot " + slot);
        }

        @Override
        public boolean abandoned(int slot) {
            asked++;
            return abandoned;
        }
    }

    @Test
    void aRecordLeftUnfinishedIsSkippedOnlyOnceItsProducerAbandonedIt() {
        int stuck = out.claim(TYPE_DATA, FLAG_BEGIN | FLAG_END, 8);
        out.putLong(stuck + RECORD_HEADER, 1);
        int after = out.claim(TYPE_DATA, FLAG_BEGIN | FLAG_END, 8);
        out.putLong(after + RECORD_HEADER, 2);
        out.commit(after, TYPE_DATA, FLAG_BEGIN | FLAG_END, 8);

        assertEquals(0, inbox.poll(handler, 16), "the unfinished record holds up the one behind it");
        inbox.checkStall(handler, 0, false);
        inbox.checkStall(handler, 10 * SECOND, true);
        inbox.checkStall(handler, 3600 * SECOND, false);
        inbox.checkStall(handler, 3600 * SECOND, true);
        assertEquals(List.of(), handler.seen, "a producer that runs finishes its record, however late");
        assertEquals(2, handler.asked, "asked on ticks only");

        handler.abandoned = true;
        inbox.checkStall(handler, 3601 * SECOND, false);
        assertEquals(List.of(), handler.seen, "asked on ticks only");
        inbox.checkStall(handler, 3601 * SECOND, true);
        assertEquals(List.of("skipped 16 of slot " + slot), handler.seen);
        assertEquals(2, inbox.poll(handler, 16));
        assertEquals(List.of("skipped 16 of slot " + slot, "record 2"), handler.seen);
        assertThrows(SegmentException.class, () -> out.commit(stuck, TYPE_DATA, FLAG_BEGIN | FLAG_END, 8),
            "the producer learns its record was skipped");
    }

    @Test
    void aRecordWhoseInboxWasAbandonedMeanwhileFailsSayingSo() {
        int at = out.claim(TYPE_DATA, FLAG_BEGIN | FLAG_END, 8);
        Segment segment = out.segment();
        segment.state(STATE_ABANDONED);
        assertTrue(segment.casRecordHeader(at, segment.recordHeader(at), 0L), "a stray write over the claim");
        assertEquals("inbox " + segment + " was abandoned by its owner while this process wrote a record to it",
            assertThrows(SegmentException.class, () -> out.commit(at, TYPE_DATA, FLAG_BEGIN | FLAG_END, 8))
                .getMessage());
        segment.state(STATE_OPEN);
        assertTrue(assertThrows(SegmentException.class, () -> out.commit(at, TYPE_DATA, FLAG_BEGIN | FLAG_END, 8))
            .getMessage().endsWith("changed before it was committed: its receiver skipped it as stalled (this "
                + "process was stopped longer than the receiver's unblockTimeoutMs), or something other than a "
                + "producer wrote into the inbox"));
    }

    @Test
    void aRecordFinishedLateIsDeliveredWhole() {
        int late = out.claim(TYPE_DATA, FLAG_BEGIN | FLAG_END, 8);
        inbox.checkStall(handler, 0, true);
        inbox.checkStall(handler, 5 * SECOND, true);
        assertEquals(0, inbox.poll(handler, 16));
        out.putLong(late + RECORD_HEADER, 9);
        out.commit(late, TYPE_DATA, FLAG_BEGIN | FLAG_END, 8);
        assertEquals(1, inbox.poll(handler, 16));
        assertEquals(List.of("record 9"), handler.seen);
    }
}
