package io.polylink.mpi.internal.boot;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import io.polylink.plogp.ModelDatabase;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Fuzzes the reading of a job's link models, which a rank takes from its environment at
 * {@code MPI.Init}: it must give models, or fail with {@code ERR_ARG}; nothing else. What it gives
 * reads back the same once written. The inputs in
 * {@code src/test/resources/io/polylink/mpi/internal/boot/LinkModelsFuzzTestInputs/models} run in
 * every build; the build also fuzzes briefly (see the module's pom).
 */
class LinkModelsFuzzTest {

    @FuzzTest
    void models(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        ModelDatabase db;
        try {
            db = Session.models(Map.of(Session.MODELS, text));
        } catch (MpiError refused) {
            if (refused.errorClass() != ErrorClass.ERR_ARG) {
                throw new AssertionError("refused with " + refused.errorClass() + ", not ERR_ARG", refused);
            }
            return;
        }
        String written = db.format();
        if (!ModelDatabase.parse(written).format().equals(written)) {
            throw new AssertionError("models written do not read back the same:\n" + written);
        }
    }
}
