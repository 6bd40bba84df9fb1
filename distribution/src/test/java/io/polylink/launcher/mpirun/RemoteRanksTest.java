package io.polylink.launcher.mpirun;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How mpirun words the command of a rank on another host, and what it sends that command. */
class RemoteRanksTest {

    @Test
    void theLauncherGetsTheHostAndACommandOfWordsEveryShellPassesUnchanged() {
        MpirunOptions.Across across = new MpirunOptions.Across(Hosts.parse("h1"), "ip netns exec {host}", null, null,
            null);
        RemoteRanks remote = new RemoteRanks(across, Path.of("/opt/polylink"));
        assertEquals(List.of("ip", "netns", "exec", "node-1", "/opt/polylink/bin/polylink", "mpirun-rank"),
            remote.command("node-1"));
        assertEquals(List.of("ssh", "-o", "BatchMode=yes", "-l", "mpi user", "n2", "/x", "y"),
            Launcher.command("ssh -o BatchMode=yes -l 'mpi user' {host}", "n2", List.of("/x", "y")));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new RemoteRanks(across, Path.of("/my dir")))
            .getMessage().contains("must be letters, digits and _@%+=:,./- alone"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Launcher.check("ssh node1")).getMessage()
            .contains("must name the host as {host}"));
    }

    @Test
    void theLineHoldsTheDirectoryTheVariablesAndTheArgumentsWhateverTheyHold() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("POLYLINK_MPI_RANK", "3");
        env.put("ODD", "a b;$(rm -rf /)'\"");
        String line = RemoteRanks.line("/home/u/run", env, List.of("java", "-cp", "/opt/polylink/lib/mpi/*:.", "Main",
            "an argument", "*"));
        assertTrue(line.matches("[A-Za-z0-9+/=]+"), line);
        String decoded = new String(Base64.getDecoder().decode(line), StandardCharsets.UTF_8);
        assertEquals(List.of("/home/u/run", "2", "POLYLINK_MPI_RANK=3", "ODD=a b;$(rm -rf /)'\"", "java", "-cp",
            "/opt/polylink/lib/mpi/*:.", "Main", "an argument", "*"), List.of(decoded.split("\0")));
    }
}
