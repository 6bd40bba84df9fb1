package io.polylink.demo.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.BitSet;
import org.junit.jupiter.api.Test;

class StreamTallyTest {

    @Test
    void countsLostDuplicatedAndReorderedAgainstWhatTheSenderSaysItSent() throws Exception {
        StreamTally tally = new StreamTally();
        for (long n : new long[] {0, 1, 3, 2, 2, 5, 6}) {
            tally.arrived(7, n);
        }
        BitSet failed = new BitSet();
        failed.set(6); // send() threw, but it arrived all the same
        tally.ended(7, new StreamTally.StreamEnd(8, failed));

        String result = tally.awaitResult(1000);

        assertTrue(result.startsWith("stream result: sent=7 delivered=5 lost=2 duplicated=1 reordered=1 failed-sends=1 "
            + "arrived-despite-failure=1"), result);
        assertTrue(result.contains("\nlost: #4"), "#4 was sent but never arrived; #7 too: " + result);
        assertTrue(result.contains("\nlost: #7"), result);
        assertTrue(result.contains("\nreordered: #2 arrived after #3"), result);
    }

    @Test
    void aNewStreamStartsAFreshCountAndAMissingEndIsSaid() throws Exception {
        StreamTally tally = new StreamTally();
        tally.arrived(1, 0);
        tally.arrived(2, 0);
        tally.arrived(2, 1);
        assertEquals("stream result: no END from the sender within 10 ms; 2 RSRs arrived (2 distinct)",
            tally.awaitResult(10));
        tally.ended(2, new StreamTally.StreamEnd(2, new BitSet()));
        assertTrue(tally.awaitResult(10).startsWith("stream result: sent=2 delivered=2 lost=0 duplicated=0 reordered=0"));
    }
}
