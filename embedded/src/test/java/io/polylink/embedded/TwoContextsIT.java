package io.polylink.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Polylink;
import io.polylink.Startpoint;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two contexts started by Polylink.start in one JVM reach each other by tcp and by shm. */
class TwoContextsIT {

    @TempDir
    Path temp;

    @Test
    void twoEmbeddedContextsLinkByTcpAndByShm() throws Exception {
        try (Polylink a = Polylink.start(TestContexts.settings(temp, "a").build());
             Polylink b = Polylink.start(TestContexts.settings(temp, "b").build())) {
            assertEquals(Set.of("local", "tcp", "shm"), a.context().methods(), "a's methods");
            assertTrue(!a.context().id().equals(b.context().id()), "two contexts, two ids");
            for (String stack : new String[] {"tcp", "shm"}) {
                Startpoint atB = TestContexts.lookup(a.context(), "b", stack);
                assertEquals("a to b by " + stack, TestContexts.echo(a, atB, stack, "a to b by " + stack));
                Startpoint atA = TestContexts.lookup(b.context(), "a", stack);
                assertEquals("b to a by " + stack, TestContexts.echo(b, atA, stack, "b to a by " + stack));
            }
        }
    }
}
