package mpi;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.comm.Communicator;
import java.nio.Buffer;

/**
 * A message taken by a matched probe ({@code MPI_Message}): {@link #mProbe} or {@link #imProbe}
 * removes it from matching, so that only {@link #mRecv} or {@link #imRecv} on this object receives
 * it, whatever other threads receive meanwhile.
 */
public final class Message {

    private volatile Communicator.Claimed claimed;

    /** Creates {@code MPI_MESSAGE_NULL}. */
    public Message() {
    }

    /** @return whether this is {@code MPI_MESSAGE_NULL}: no message taken, or received already */
    public boolean isNull() {
        return claimed == null;
    }

    /** @return whether this is {@code MPI_MESSAGE_NO_PROC}: taken from {@link MPI#PROC_NULL} */
    public boolean isNoProc() {
        Communicator.Claimed c = claimed;
        return c != null && c.message() == null;
    }

    /** Takes the first message a receive with these arguments would match, once one arrived ({@code MPI_MPROBE}). */
    public Status mProbe(int source, int tag, Comm comm) throws MPIException {
        Communicator c = comm.comm();
        try {
            return take(c.claim(source, tag, true));
        } catch (MpiError e) {
            throw Errors.raise(c, e);
        }
    }

    /** @return like {@link #mProbe}, or {@code null} at once if no such message arrived ({@code MPI_IMPROBE}) */
    public Status imProbe(int source, int tag, Comm comm) throws MPIException {
        Communicator c = comm.comm();
        try {
            Communicator.Claimed found = c.claim(source, tag, false);
            return found == null ? null : take(found);
        } catch (MpiError e) {
            throw Errors.raise(c, e);
        }
    }

    private Status take(Communicator.Claimed found) {
        claimed = found;
        Communicator.Probed p = found.status();
        return Status.probed(p.source(), p.tag(), p.bytes());
    }

    /** Receives the taken message ({@code MPI_MRECV}); this becomes {@code MPI_MESSAGE_NULL}. */
    public Status mRecv(Object buf, int count, Datatype type) throws MPIException {
        Communicator.Claimed c = claimedOrFail();
        try {
            return Comm.await(Communicator.receive(c, buf, count, Datatype.use(type)));
        } catch (MpiError e) {
            throw Errors.raise(c.communicator(), e);
        }
    }

    /** Starts receiving the taken message ({@code MPI_IMRECV}); this becomes {@code MPI_MESSAGE_NULL}. @param buf a direct buffer */
    public Request imRecv(Buffer buf, int count, Datatype type) throws MPIException {
        MPI.assertDirectBuffer(buf);
        Communicator.Claimed c = claimedOrFail();
        try {
            return new Request(Communicator.receive(c, buf, count, Datatype.use(type)), c.communicator());
        } catch (MpiError e) {
            throw Errors.raise(c.communicator(), e);
        }
    }

    private Communicator.Claimed claimedOrFail() throws MPIException {
        MPI.check();
        Communicator.Claimed c;
        synchronized (this) {
            c = claimed;
            claimed = null;
        }
        if (c == null) {
            throw Errors.raise(new MpiError(ErrorClass.ERR_REQUEST, "the message is MPI_MESSAGE_NULL: take one with "
                + "mProbe or imProbe first"));
        }
        return c;
    }
}
