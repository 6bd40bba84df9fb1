package io.polylink.bench.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.polylink.testkit.Await;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;
import org.junit.jupiter.api.Test;

/** The mpi engine's benchmark measures what it says: each call is one message sent and received whole. */
class MpiSelfMessageTest {

    @Test
    void eachCallReceivesTheMessageItSent() throws MPIException {
        MpiSelfMessage benchmark = new MpiSelfMessage();
        benchmark.size = 8;
        benchmark.init(); // fails unless the first message arrived whole
        try {
            for (int call = 0; call < 1000; call++) {
                java.util.Arrays.fill(benchmark.received(), (byte) 0);
                Status status = benchmark.sendRecv();
                assertEquals(8, status.getCount(MPI.BYTE), "bytes received by call " + call);
                assertEquals(0, status.getSource(), "the sender of call " + call);
                assertArrayEquals(benchmark.sent(), benchmark.received(), "the data of call " + call);
            }
        } finally {
            benchmark.finish();
        }
        Await.noThreads("polylink-");
    }
}
