package io.polylink.mpi.internal.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Context ids: even, never those in use or proposed by another creation, WORLD and SELF reserved. */
class ContextIdsTest {

    @Test
    void proposalsSkipIdsInUseAndProposedElsewhere() {
        ContextIds ids = new ContextIds();
        int a = ids.propose(-1);
        int b = ids.propose(-1);
        assertEquals(4, a);
        assertEquals(6, b, "a second creation at the same time proposes another id");
        assertFalse(ids.claim(b, a), "b is another creation's proposal");
        assertTrue(ids.claim(a, a));
        assertEquals(8, ids.propose(a), "above the floor, past ids in use");
        assertTrue(ids.claim(10, b), "an id no one here uses");
        assertFalse(ids.claim(10, ids.propose(-1)), "taken now");
        ids.release(10);
        assertEquals(10, ids.propose(8));
    }
}
