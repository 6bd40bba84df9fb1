package io.polylink.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.polylink.Polylink;
import io.polylink.Startpoint;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A context started with tcp alone meets shm in a peer's table and installs it from the
 * repository polylink-embedded carries, as a node installs from its repo/.
 */
class OnDemandInstallIT {

    @TempDir
    Path temp;

    @Test
    void aMethodMetInAPeersTableIsInstalledFromTheCarriedRepository() throws Exception {
        try (Polylink a = Polylink.start(TestContexts.settings(temp, "a").methods("tcp").build());
             Polylink b = Polylink.start(TestContexts.settings(temp, "b").build())) {
            assertFalse(a.context().methods().contains("shm"), "a starts without shm");
            Startpoint atB = TestContexts.lookup(a.context(), "b", "shm");
            // the first send selects: shm is first in b's table and missing here, so it is installed
            // while the send goes on by tcp
            assertEquals("first", TestContexts.echo(a, atB, null, "first"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!a.context().methods().contains("shm")) {
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("shm was not installed within 30 s; a has " + a.context().methods()
                        + "; a's link to b: " + atB.explain());
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10)); // an install has no event the API shows
            }
            assertEquals("by shm", TestContexts.echo(a, atB, "shm", "by shm"));
        }
    }
}
