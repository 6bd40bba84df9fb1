package io.polylink.mpi.programs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.mpi.plogp.PLogPMeasurement;
import io.polylink.plogp.LinkModel;
import io.polylink.plogp.SizeParameters;
import io.polylink.spi.PeerLocation;
import java.time.Duration;
import java.util.List;
import mpi.Info;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * P-LogP measurements between ranks 2 and 0 of three, over each stack given as an argument, in
 * eager and rendezvous sizes: both ranks get the same model, rank 1 none. (What the figures are
 * worth is for a quiet machine to say: ranks in one JVM share its threads and cores.) Then a measurement between a rank and itself is
 * refused, and COMM_WORLD still carries messages.
 */
public final class Measurements {

    private Measurements() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int me = world.getRank();
        PLogPMeasurement measurement = new PLogPMeasurement(List.of(1L, 1024L, 262_144L), Duration.ofMillis(5),
            Duration.ofMillis(200));
        assertEquals(List.of(0L, 1L, 1024L, 262_144L), measurement.sizes());
        for (String stack : args) {
            Info pin = new Info();
            pin.set("polylink.stack", stack);
            Intracomm c = world.dupWithInfo(pin);
            LinkModel model = measurement.measure(c, 2, 0);
            if (me == 1) {
                assertNull(model, "rank 1 takes no part");
            } else {
                assertEquals(stack, model.stack());
                assertEquals(PeerLocation.SAME_HOST, model.location());
                assertEquals(List.of(0L, 1L, 1024L, 262_144L), model.sizes().stream().map(SizeParameters::bytes).toList());
                // Both ranks hold the same model: rank 0 sends its own to rank 2 to compare.
                byte[] text = io.polylink.plogp.ModelDatabase.of(List.of(model)).format()
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8);
                int[] length = {text.length};
                if (me == 0) {
                    c.send(length, 1, MPI.INT, 2, 9);
                    c.send(text, text.length, MPI.BYTE, 2, 9);
                } else {
                    c.recv(length, 1, MPI.INT, 0, 9);
                    byte[] theirs = new byte[length[0]];
                    c.recv(theirs, theirs.length, MPI.BYTE, 0, 9);
                    assertEquals(new String(theirs, java.nio.charset.StandardCharsets.UTF_8),
                        new String(text, java.nio.charset.StandardCharsets.UTF_8));
                }
            }
            c.free();
        }
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> measurement.measure(world, 1, 1));
        assertTrue(refused.getMessage().contains("two different ranks of the communicator's 3, not 1 and 1"),
            refused.getMessage());
        int[] token = {me};
        world.allReduce(token, 1, MPI.INT, MPI.SUM);
        assertEquals(3, token[0], "COMM_WORLD still carries messages");
        MPI.Finalize();
    }
}
