package io.polylink.method.shm.internal.poll;

import static io.polylink.method.shm.internal.poll.Backoff.CONVERSATION_SENDS;
import static io.polylink.method.shm.internal.poll.Backoff.LONG_GAPS;
import static io.polylink.method.shm.internal.poll.Backoff.MAX_STRETCH_NANOS;
import static io.polylink.method.shm.internal.poll.Backoff.PROBE_EVERY;
import static io.polylink.method.shm.internal.poll.Backoff.SHORT_SPIN_NANOS;
import static io.polylink.method.shm.internal.poll.Backoff.SPIN_QUIET_NANOS;
import static io.polylink.method.shm.internal.poll.Backoff.STRETCH_DECAY;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class BackoffTest {

    private static final int SPIN_MICROS = 200;
    private static final long SPIN = TimeUnit.MICROSECONDS.toNanos(SPIN_MICROS);
    private static final long ACK_GAP = TimeUnit.MICROSECONDS.toNanos(150);
    private static final long REPLY_GAP = TimeUnit.MICROSECONDS.toNanos(2);

    @Test
    void aPingPongKeepsItsFullSpinThroughTheOddLongPause() {
        Backoff b = new Backoff(IdleStrategy.SPIN_THEN_PARK, SPIN_MICROS);
        assertEquals(SPIN, b.spinNanos());
        for (int i = 0; i < 1000; i++) {
            b.workAfter(i % 10 == 0 ? ACK_GAP : REPLY_GAP, 0);
            assertEquals(SPIN, b.spinNanos(), "after gap " + i);
        }
    }

    @Test
    void gapsThatKeepBeingLongShortenTheSpinButForAFullOneNowAndThen() {
        Backoff b = new Backoff(IdleStrategy.SPIN_THEN_PARK, SPIN_MICROS);
        for (int i = 1; i < LONG_GAPS; i++) {
            b.workAfter(ACK_GAP, 0);
            assertEquals(SPIN, b.spinNanos(), "shortened after " + i + " long gaps");
        }
        int full = 0;
        for (int i = 0; i < 10 * PROBE_EVERY; i++) {
            b.workAfter(ACK_GAP, 0);
            full += b.spinNanos() == SPIN ? 1 : 0;
            assertEquals(b.spinNanos() == SPIN ? SPIN : SHORT_SPIN_NANOS, b.spinNanos());
        }
        assertEquals(10, full, "full spins among " + 10 * PROBE_EVERY + " long gaps");
        b.workAfter(REPLY_GAP, 0);
        assertEquals(SPIN, b.spinNanos(), "one short gap brings the full spin back");
    }

    @Test
    void aConversationKeepsItsFullSpinHoweverLongThePeerTakesToAnswer() {
        Backoff b = new Backoff(IdleStrategy.SPIN_THEN_PARK, SPIN_MICROS);
        for (int i = 0; i < 10 * LONG_GAPS; i++) {
            b.workAfter(ACK_GAP, 1 + i % CONVERSATION_SENDS);
            assertEquals(SPIN, b.spinNanos(), "after answer " + i);
        }
    }

    @Test
    void aStreamsAcknowledgementsShortenTheSpinThoughThisContextSendsBetweenThem() {
        Backoff b = new Backoff(IdleStrategy.SPIN_THEN_PARK, SPIN_MICROS);
        for (int i = 0; i < LONG_GAPS; i++) {
            b.workAfter(ACK_GAP, 16);
        }
        assertEquals(SHORT_SPIN_NANOS, b.spinNanos());
    }

    @Test
    void spinYieldsBetweenPollsOnlyWhereTheGapsKeepBeingLong() {
        Backoff b = new Backoff(IdleStrategy.SPIN, SPIN_MICROS);
        for (int i = 0; i < 10 * LONG_GAPS; i++) {
            b.workAfter(ACK_GAP, 1 + i % CONVERSATION_SENDS);
            assertEquals(Long.MAX_VALUE, b.yieldNanos(), "a conversation yielded after answer " + i);
        }
        for (int i = 1; i < LONG_GAPS; i++) {
            b.workAfter(ACK_GAP, 16);
            assertEquals(Long.MAX_VALUE, b.yieldNanos(), "yielded after " + i + " long gaps");
        }
        b.workAfter(ACK_GAP, 16);
        assertEquals(SHORT_SPIN_NANOS, b.yieldNanos());
        b.workAfter(REPLY_GAP, 0);
        assertEquals(Long.MAX_VALUE, b.yieldNanos(), "one short gap ends the yielding");
    }

    @Test
    void onlySpinYields() {
        for (IdleStrategy strategy : new IdleStrategy[] {IdleStrategy.SPIN_THEN_PARK, IdleStrategy.PARK}) {
            Backoff b = new Backoff(strategy, SPIN_MICROS);
            for (int i = 0; i < 10 * LONG_GAPS; i++) {
                b.workAfter(ACK_GAP, 0);
                assertEquals(Long.MAX_VALUE, b.yieldNanos(), strategy + " after gap " + i);
            }
        }
    }

    @Test
    void spinParksOnlyWhenQuietFor100MsAndParkNeverSpins() {
        Backoff spin = new Backoff(IdleStrategy.SPIN, SPIN_MICROS);
        Backoff park = new Backoff(IdleStrategy.PARK, SPIN_MICROS);
        for (int i = 0; i < 10 * LONG_GAPS; i++) {
            spin.workAfter(ACK_GAP, i % 2 == 0 ? 0 : 1);
            park.workAfter(REPLY_GAP, 0);
            assertEquals(SPIN_QUIET_NANOS, spin.spinNanos());
            assertEquals(0, park.spinNanos());
        }
    }

    @Test
    void anAnsweringPollerWokenSoonAfterParkingStretchesItsSpinUpToTheBound() {
        Backoff b = new Backoff(IdleStrategy.SPIN_THEN_PARK, SPIN_MICROS);
        long expected = SPIN;
        for (int i = 0; expected < MAX_STRETCH_NANOS; i++) {
            b.workAfter(b.spinNanos() + REPLY_GAP, 1);
            b.parked(REPLY_GAP, true);
            expected = Math.min(MAX_STRETCH_NANOS, 2 * expected);
            assertEquals(expected, b.spinNanos(), "after early wake-up " + i);
        }
        b.parked(REPLY_GAP, true);
        assertEquals(MAX_STRETCH_NANOS, b.spinNanos(), "the stretch is bounded");
        b.workAfter(ACK_GAP, 1);
        assertEquals(MAX_STRETCH_NANOS, b.spinNanos(), "a conversation keeps its stretch");
    }

    @Test
    void longParksHalveTheStretchBackToTheConfiguredSpin() {
        Backoff b = new Backoff(IdleStrategy.SPIN_THEN_PARK, SPIN_MICROS);
        while (b.spinNanos() < MAX_STRETCH_NANOS) {
            b.parked(REPLY_GAP, true);
        }
        b.parked(STRETCH_DECAY * b.spinNanos() - 1, true);
        assertEquals(MAX_STRETCH_NANOS, b.spinNanos(), "a park shorter than the decay keeps the stretch");
        int parks = 0;
        while (b.spinNanos() > SPIN) {
            b.parked(STRETCH_DECAY * b.spinNanos(), false);
            parks++;
        }
        assertEquals(SPIN, b.spinNanos());
        assertEquals(5, parks, "halvings from 5 ms down to 200 us");
        b.parked(TimeUnit.MILLISECONDS.toNanos(100), false);
        assertEquals(SPIN, b.spinNanos(), "never below the configured spin");
    }

    @Test
    void aPollerThatDidNotAnswerOrWokeLateOrHearsAStreamNeverStretches() {
        Backoff b = new Backoff(IdleStrategy.SPIN_THEN_PARK, SPIN_MICROS);
        b.parked(REPLY_GAP, false);
        assertEquals(SPIN, b.spinNanos(), "records handed to other threads");
        b.parked(SPIN, true);
        assertEquals(SPIN, b.spinNanos(), "woken a whole spin after parking");
        for (int i = 0; i < LONG_GAPS; i++) {
            b.workAfter(ACK_GAP, 16);
        }
        b.parked(REPLY_GAP, true);
        assertEquals(SHORT_SPIN_NANOS, b.spinNanos(), "a stream's acknowledgements");
        for (IdleStrategy other : new IdleStrategy[] {IdleStrategy.SPIN, IdleStrategy.PARK}) {
            Backoff o = new Backoff(other, SPIN_MICROS);
            long before = o.spinNanos();
            o.parked(0, true);
            assertEquals(before, o.spinNanos(), other + " keeps its own spin");
        }
    }
}
