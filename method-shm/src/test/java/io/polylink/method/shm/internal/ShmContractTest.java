package io.polylink.method.shm.internal;

import io.polylink.tck.MethodContractTest;
import io.polylink.tck.MethodUnderTest;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;

/** The method contract, kept by shm with its inboxes in a directory of the test's own. */
class ShmContractTest extends MethodContractTest {

    @TempDir
    Path directory;

    @Override
    protected MethodUnderTest method() {
        return MethodUnderTest.of(() -> new ShmMethod(Map.of("directory", directory.toString())));
    }
}
