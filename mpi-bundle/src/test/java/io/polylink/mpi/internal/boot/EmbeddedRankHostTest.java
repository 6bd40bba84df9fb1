package io.polylink.mpi.internal.boot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.PolylinkSettings;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a rank in a JVM of its own asks {@code Polylink.start} for, from the launcher's variables. */
class EmbeddedRankHostTest {

    private static final Map<String, String> JOB = Map.of(LaunchSettings.JOB, "j1", LaunchSettings.RANK, "1",
        LaunchSettings.SIZE, "2", LaunchSettings.REGISTRY, "/tmp/registry");

    private static PolylinkSettings settings(Map<String, String> more) {
        Map<String, String> env = new java.util.HashMap<>(JOB);
        env.putAll(more);
        return EmbeddedRankHost.settings(env, LaunchSettings.from(env));
    }

    @Test
    void theLaunchersVariablesBecomeTheRuntimesSettings() {
        PolylinkSettings s = settings(Map.of(EmbeddedRankHost.STORAGE, "/tmp/rank-1",
            EmbeddedRankHost.SHM_DIRECTORY, "/dev/shm/job", EmbeddedRankHost.TCP_ADDRESS, "127.0.0.1"));
        assertEquals(PolylinkSettings.DEFAULT_METHODS, s.methods());
        assertEquals(List.of(), s.transforms());
        assertEquals(Path.of("/tmp/rank-1"), s.storage().orElseThrow());
        assertEquals(Map.of("directory", "/tmp/registry"), s.configurations().get("io.polylink.registry"));
        assertEquals(Map.of("directory", "/dev/shm/job"), s.configurations().get("io.polylink.method.shm"));
        assertEquals(Map.of("bindAddress", "127.0.0.1"), s.configurations().get("io.polylink.method.tcp"));
        assertEquals(null, s.configurations().get("io.polylink.core"), "the table is the runtime's own");
    }

    @Test
    void transformsAreOfferedOverEveryMethodButShmAfterThePlainStacks() {
        PolylinkSettings s = settings(Map.of(EmbeddedRankHost.METHODS, "tcp, shm", EmbeddedRankHost.TRANSFORMS, "lz4,aead"));
        assertEquals(List.of("tcp", "shm"), s.methods());
        assertEquals(List.of("lz4", "aead"), s.transforms());
        assertArrayEquals(new String[] {"shm", "tcp", "lz4/tcp", "aead/tcp"},
            (String[]) s.configurations().get("io.polylink.core").get("table"));
    }

    @Test
    void aMethodsSettingsComeFromItsVariableAndTheLaunchersOwnWin() {
        PolylinkSettings s = settings(Map.of(LaunchSettings.SHM_SETTINGS, " standBackMs=60000, ringBytes = 4194304,",
            EmbeddedRankHost.SHM_DIRECTORY, "/dev/shm/job", LaunchSettings.TCP_SETTINGS, "tcpNoDelay=false"));
        assertEquals(Map.of("standBackMs", "60000", "ringBytes", "4194304", "directory", "/dev/shm/job"),
            s.configurations().get("io.polylink.method.shm"));
        assertEquals(Map.of("tcpNoDelay", "false"), s.configurations().get("io.polylink.method.tcp"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> settings(Map.of(LaunchSettings.SHM_SETTINGS, "standBackMs=5,ringBytes")));
        assertTrue(e.getMessage().startsWith("POLYLINK_MPI_SHM_SETTINGS='standBackMs=5,ringBytes': 'ringBytes' is not "
            + "a setting"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> settings(Map.of(LaunchSettings.TCP_SETTINGS, "a.b=1")));
        assertTrue(e.getMessage().contains("'a.b=1' is not a setting"), e.getMessage());
    }

    @Test
    void aBadNameIsRefusedNamingTheVariable() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> settings(Map.of(EmbeddedRankHost.METHODS, "tcp,Shm!")));
        assertTrue(e.getMessage().startsWith("POLYLINK_MPI_METHODS='tcp,Shm!': invalid method name 'Shm!'"),
            e.getMessage());
    }
}
