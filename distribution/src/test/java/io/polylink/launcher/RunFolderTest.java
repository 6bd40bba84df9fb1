package io.polylink.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.polylink.launcher.NodeState.State;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * run/ as one process sees it. A name held by another live process is the process tests' part
 * (itests' NodeLifecycleIT): file locks belong to a process, so this JVM cannot stand for two.
 */
class RunFolderTest {

    @TempDir
    Path dir;

    @Test
    void aPidFileNobodyHoldsIsStaleAndAClaimReplacesIt() throws Exception {
        RunFolder run = new RunFolder(dir.resolve("run"));
        assertEquals(new NodeState("a", State.STOPPED, 0, Map.of()), run.probe("a"));
        Files.createDirectories(run.dir());
        Files.writeString(run.pidFile("a"), "4242\n");
        Files.writeString(run.factsFile("a"), "context=old\n");
        assertEquals(new NodeState("a", State.STALE, 4242, Map.of("context", "old")), run.probe("a"));
        assertEquals(List.of(new NodeState("a", State.STALE, 4242, Map.of("context", "old"))), run.probeAll());

        try (NameClaim claim = run.claim("a")) {
            assertEquals(4242, claim.replacedPid());
            assertEquals(ProcessHandle.current().pid() + "\n", Files.readString(run.pidFile("a")));
            assertEquals(Map.of(), run.facts("a"), "the dead node's facts go with its pid file");
            claim.put(Map.of(NameClaim.STATE, NameClaim.UP, NameClaim.CONTEXT, "c"));
            claim.remove(NameClaim.CONTEXT);
            assertEquals(Map.of(NameClaim.STATE, NameClaim.UP), run.facts("a"));
        }
        assertFalse(Files.exists(run.pidFile("a")));
        assertFalse(Files.exists(run.factsFile("a")));
        assertEquals(State.STOPPED, run.probe("a").state());
    }

    @Test
    void removingAStalePidFileLeavesNothing() throws Exception {
        RunFolder run = new RunFolder(dir);
        Files.writeString(run.pidFile("b"), "7\n");
        assertEquals(new NodeState("b", State.STALE, 7, Map.of()), run.removeStale("b"));
        assertEquals(List.of(), run.probeAll());
        assertEquals(State.STOPPED, run.removeStale("b").state());
    }
}
