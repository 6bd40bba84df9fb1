package io.polylink.mpi.internal.plogp;

import java.nio.ByteBuffer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/** Rank 1 of a measurement: carries out the measurer's commands until told to stop. */
final class Mirror {

    private static final int MEASURER = 0;

    private final Intracomm pair;
    private final ByteBuffer out;
    private final ByteBuffer in;
    private final byte[] none = new byte[0];

    Mirror(Intracomm pair, long[] sizes) {
        this.pair = pair;
        long largest = sizes[sizes.length - 1];
        this.out = MPI.newByteBuffer((int) Math.max(1, largest));
        long streams = 1;
        for (long m : sizes) {
            streams = Math.max(streams, Protocol.streamBytes(m));
        }
        this.in = MPI.newByteBuffer((int) streams);
    }

    void run() throws MPIException {
        long[] command = new long[3];
        while (true) {
            pair.recv(command, 3, MPI.LONG, MEASURER, Protocol.COMMAND);
            int m = (int) command[1];
            long count = command[2];
            if (command[0] == Protocol.END) {
                return;
            } else if (command[0] == Protocol.ROUND_TRIPS) {
                for (long i = 0; i < count; i++) {
                    pair.recv(in, m, MPI.BYTE, MEASURER, Protocol.DATA);
                    pair.send(out, m, MPI.BYTE, MEASURER, Protocol.DATA);
                }
            } else if (command[0] == Protocol.SENDS) {
                for (long i = 0; i < count; i++) {
                    Request r = pair.iRecv(in, m, MPI.BYTE, MEASURER, Protocol.DATA);
                    pair.send(none, 0, MPI.BYTE, MEASURER, Protocol.ACK);
                    r.waitFor();
                }
                pair.send(none, 0, MPI.BYTE, MEASURER, Protocol.ACK);
            } else if (command[0] == Protocol.RECEIVES) {
                for (long i = 0; i < count; i++) {
                    pair.recv(none, 0, MPI.BYTE, MEASURER, Protocol.ACK);
                    pair.send(out, m, MPI.BYTE, MEASURER, Protocol.DATA);
                }
            } else if (command[0] == Protocol.STREAM) {
                stream(m, count);
            } else {
                throw new MPIException("P-LogP: the measurer sent command " + command[0] + ", which this mirror does not know");
            }
        }
    }

    private void stream(int m, long count) throws MPIException {
        int window = Protocol.window(m);
        ByteBuffer[] slots = new ByteBuffer[window];
        for (int j = 0; j < window; j++) {
            slots[j] = MPI.slice(in, j * m);
        }
        Request[] requests = new Request[window];
        for (long received = 0; received < count; ) {
            int burst = (int) Math.min(window, count - received);
            for (int j = 0; j < burst; j++) {
                requests[j] = pair.iRecv(slots[j], m, MPI.BYTE, MEASURER, Protocol.DATA);
            }
            Request.waitAll(burst == window ? requests : java.util.Arrays.copyOf(requests, burst));
            received += burst;
        }
        pair.send(none, 0, MPI.BYTE, MEASURER, Protocol.ACK);
    }
}
