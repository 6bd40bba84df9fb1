package io.polylink.launcher.mpirun;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The hosts of a job in Open MPI's formats, and where its ranks go. */
class HostsTest {

    @TempDir
    Path temp;

    @Test
    void aHostListGivesEachHostItsSlotsAndRanksFillThemInOrder() {
        Hosts hosts = Hosts.parse("h1:2,h2:2,h3");
        assertEquals(List.of(new Hosts.Host("h1", 2, null), new Hosts.Host("h2", 2, null), new Hosts.Host("h3", 1, null)),
            hosts.hosts());
        assertEquals(5, hosts.slots());
        assertEquals(List.of("h1", "h1", "h2", "h2"), hosts.place(4).stream().map(Hosts.Host::name).toList());
        assertEquals(List.of(new Hosts.Host("h1", 3, null)), Hosts.parse("h1,h1:2").hosts(), "a host named twice");
    }

    @Test
    void aHostfileReadsOpenMpisLinesAndASite() throws Exception {
        Path file = Files.writeString(temp.resolve("hosts"), """
            # the cluster
            node1 slots=2 site=a
            node2   slots=2 max_slots=4   site=b   # a comment
            node3
            """);
        assertEquals(List.of(new Hosts.Host("node1", 2, "a"), new Hosts.Host("node2", 2, "b"),
            new Hosts.Host("node3", 1, null)), Hosts.read(file).hosts());
    }

    @Test
    void aWrongEntryOrTooManyRanksIsNamed() throws Exception {
        Path file = Files.writeString(temp.resolve("hosts"), "node1 slots=2\nnode2 cpus=4\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Hosts.read(file)).getMessage()
            .endsWith("hosts, line 2: unknown attribute 'cpus'; a line takes slots=N, max_slots=N and site=NAME"));
        assertEquals("--host entry 'h1:0': slots are a number from 1 to 1024, not '0'",
            assertThrows(IllegalArgumentException.class, () -> Hosts.parse("h1:0")).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Hosts.parse("h1,bad host")).getMessage()
            .contains("'bad host' is not a host name"));
        assertEquals("-np 5 ranks do not fit the 4 slots of h1:2, h2:2; give each host more slots (--host NAME:SLOTS, "
            + "or slots=N in a hostfile)", assertThrows(IllegalArgumentException.class,
            () -> Hosts.parse("h1:2,h2:2").place(5)).getMessage());
    }
}
