package io.polylink.mpi.programs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.List;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * Wildcards and MPI's non-overtaking rule. Every rank but 0 sends rank 0 a numbered stream of
 * messages, small (eager) and large (rendezvous) mixed, with tags 0 to 2. Rank 0 receives them
 * with every combination of specific and wildcard source and tag, and checks each message is the
 * earliest one from its sender that the receive could match: a message never overtakes one sent
 * before it that the same receive would have matched, whatever its size.
 */
public final class Ordering {

    private static final int PER_SENDER = 120;
    private static final int SMALL = 3;
    private static final int LARGE = 600;

    private Ordering() {}

    static int tagOf(int seq) {
        return seq % 7 % 3;
    }

    static int lengthOf(int seq) {
        return seq % 5 == 0 ? LARGE : SMALL;
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        int me = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        if (me != 0) {
            // Non-blocking, so that a large message waiting for its receive holds back no later one
            // rank 0 may ask for first.
            Request[] sent = new Request[PER_SENDER];
            for (int seq = 0; seq < PER_SENDER; seq++) {
                IntBuffer message = MPI.newIntBuffer(lengthOf(seq));
                message.put(0, me).put(1, seq).put(2, tagOf(seq)).put(lengthOf(seq) - 1, seq * 31 + me);
                sent[seq] = MPI.COMM_WORLD.iSend(message, lengthOf(seq), MPI.INT, 0, tagOf(seq));
            }
            Request.waitAll(sent);
        } else {
            receiveAll(size);
        }
        MPI.Finalize();
    }

    /** What rank 0 still expects from each sender, in the order it was sent. */
    private static void receiveAll(int size) throws MPIException {
        List<List<Integer>> pending = new ArrayList<>();
        pending.add(List.of());
        for (int s = 1; s < size; s++) {
            List<Integer> seqs = new ArrayList<>();
            for (int seq = 0; seq < PER_SENDER; seq++) {
                seqs.add(seq);
            }
            pending.add(seqs);
        }
        int total = (size - 1) * PER_SENDER;
        int[] buffer = new int[LARGE];
        for (int n = 0; n < total; n++) {
            int source = n % 4 < 2 ? MPI.ANY_SOURCE : 1 + n % (size - 1);
            int tag = n % 3 == 0 ? MPI.ANY_TAG : n % 3;
            if (!anyMatch(pending, source, tag)) {
                source = MPI.ANY_SOURCE;
                tag = MPI.ANY_TAG;
            }
            Status status = MPI.COMM_WORLD.recv(buffer, buffer.length, MPI.INT, source, tag);
            int from = buffer[0];
            int seq = buffer[1];
            assertEquals(from, status.getSource(), "status source");
            assertEquals(tagOf(seq), status.getTag(), "status tag");
            assertEquals(lengthOf(seq), status.getCount(MPI.INT), "count of message " + seq + " from " + from);
            assertEquals(seq * 31 + from, buffer[lengthOf(seq) - 1], "last element of message " + seq);
            assertTrue(source == MPI.ANY_SOURCE || source == from, "source matched");
            assertTrue(tag == MPI.ANY_TAG || tag == status.getTag(), "tag matched");
            int earliest = firstMatching(pending.get(from), tag);
            assertEquals(earliest, seq, "receive " + n + " (source " + source + ", tag " + tag + ") got message "
                + seq + " from rank " + from + ", overtaking message " + earliest);
            pending.get(from).remove(Integer.valueOf(seq));
        }
    }

    private static int firstMatching(List<Integer> seqs, int tag) {
        return seqs.stream().filter(s -> tag == MPI.ANY_TAG || tag == tagOf(s)).findFirst().orElse(-1);
    }

    private static boolean anyMatch(List<List<Integer>> pending, int source, int tag) {
        for (int s = 1; s < pending.size(); s++) {
            if ((source == MPI.ANY_SOURCE || source == s) && firstMatching(pending.get(s), tag) >= 0) {
                return true;
            }
        }
        return false;
    }
}
