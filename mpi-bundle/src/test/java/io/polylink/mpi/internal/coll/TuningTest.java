package io.polylink.mpi.internal.coll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TuningTest {

    @Test
    void infoNamesAlgorithmsTheHierarchyAndTheSegmentSize() {
        Tuning t = Tuning.of(Map.of("polylink.coll.bcast", "pipeline", "polylink.coll.allreduce", "auto",
            "polylink.coll.hierarchy", "false", "polylink.coll.segment", "4096", "other.key", "kept"));
        assertEquals("pipeline", t.forced(Collective.BCAST));
        assertNull(t.forced(Collective.ALLREDUCE), "auto chooses per call");
        assertFalse(t.hierarchy());
        assertEquals(4096, t.segment());
        assertTrue(Tuning.of(Map.of()).hierarchy());
    }

    @Test
    void theHierarchicalAlgorithmIsNotTakenWhenTheInfoTurnsTheHierarchyOff() {
        Map<String, String> named = Map.of("polylink.coll.gather", "hierarchical", "polylink.coll.scatter", "linear");
        Tuning on = Tuning.of(named);
        assertEquals("hierarchical", Collective.GATHER.forced(on));
        Tuning off = Tuning.of(Map.of("polylink.coll.gather", "hierarchical", "polylink.coll.scatter", "linear",
            "polylink.coll.hierarchy", "false"));
        assertNull(Collective.GATHER.forced(off), "chosen per call, flat");
        assertEquals("linear", Collective.SCATTER.forced(off), "flat algorithms stay named");
    }

    @Test
    void aWrongValueOrKeyIsRefusedNamingWhatWouldDo() {
        MpiError value = assertThrows(MpiError.class, () -> Tuning.of(Map.of("polylink.coll.alltoall", "fast")));
        assertEquals(ErrorClass.ERR_INFO_VALUE, value.errorClass());
        assertTrue(value.getMessage().contains("bruck, pairwise, linear, hierarchical"), value.getMessage());
        MpiError key = assertThrows(MpiError.class, () -> Tuning.of(Map.of("polylink.coll.alltoal", "bruck")));
        assertEquals(ErrorClass.ERR_INFO_KEY, key.errorClass());
        assertEquals(ErrorClass.ERR_INFO_VALUE, assertThrows(MpiError.class,
            () -> Tuning.of(Map.of("polylink.coll.segment", "12"))).errorClass());
    }
}
