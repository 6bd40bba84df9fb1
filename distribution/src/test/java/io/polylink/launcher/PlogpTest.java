package io.polylink.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlogpTest {

    private static final Path HOME = Path.of("/opt/polylink");

    @Test
    void stacksStartTheirMethodsAndTransformsAndTheRestGoesToMpirunOrTheRankProgram() {
        List<String> args = Plogp.mpirunArgs(new String[] {"--stacks", "shm,lz4/tcp,lz4+aead/udp", "--host", "a,b",
            "--max-size", "64k", "-x", "JAVA_HOME", "--svg", "out.svg"}, HOME);
        assertEquals(List.of("-np", "2", "--host", "a,b", "-x", "JAVA_HOME", "-x", "POLYLINK_MPI_PLOGP_MODELS=", "--methods", "tcp,shm,udp",
            "--transforms", "lz4,aead", "-cp", "/opt/polylink/lib/mpi/polylink-mpi.jar",
            "io.polylink.mpi.internal.plogp.PLogPMain", "--stacks", "shm,lz4/tcp,lz4+aead/udp", "--max-size", "64k",
            "--db", "/opt/polylink/conf/plogp.models", "--svg", "out.svg"), args);
    }

    @Test
    void withoutOptionsTheModelsGoToTheInstallationsFile() {
        assertEquals(List.of("-np", "2", "-x", "POLYLINK_MPI_PLOGP_MODELS=", "--methods", "tcp,shm", "-cp", "/opt/polylink/lib/mpi/polylink-mpi.jar",
            "io.polylink.mpi.internal.plogp.PLogPMain", "--db", "/opt/polylink/conf/plogp.models", "--svg",
            "plogp.svg"), Plogp.mpirunArgs(new String[0], HOME));
        assertNull(Plogp.mpirunArgs(new String[] {"--help"}, HOME));
    }

    @Test
    void anUnknownOptionOrAMissingValueIsNamed() {
        assertEquals("unknown option '-np'", assertThrows(IllegalArgumentException.class,
            () -> Plogp.mpirunArgs(new String[] {"-np", "4"}, HOME)).getMessage());
        assertEquals("--db needs a value", assertThrows(IllegalArgumentException.class,
            () -> Plogp.mpirunArgs(new String[] {"--db"}, HOME)).getMessage());
    }
}
