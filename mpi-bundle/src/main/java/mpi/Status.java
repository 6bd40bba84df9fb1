package mpi;

import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.datatype.Typemap;
import io.polylink.mpi.internal.request.Operation;

/**
 * The status of a completed communication or a probe ({@code MPI_Status}): its source, tag,
 * error and length.
 */
public final class Status {

    private final int source;
    private final int tag;
    private final int error;
    private final int index;
    private boolean cancelled;
    private long bytes;

    private Status(int source, int tag, int error, boolean cancelled, long bytes, int index) {
        this.source = source;
        this.tag = tag;
        this.error = error;
        this.cancelled = cancelled;
        this.bytes = bytes;
        this.index = index;
    }

    static Status of(Operation op) {
        return of(op, 0);
    }

    static Status of(Operation op, int index) {
        return new Status(op.source(), op.tag(), op.errorClass(), op.cancelled(), op.bytes(), index);
    }

    static Status probed(int source, int tag, long bytes) {
        return new Status(source, tag, MPI.SUCCESS, false, bytes, 0);
    }

    /** @return the status of an inactive request: any source, any tag, nothing received */
    static Status empty(int index) {
        return new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, MPI.SUCCESS, false, 0, index);
    }

    /**
     * @param datatype the datatype the data was received as
     * @return the number of whole {@code datatype} elements received, or {@link MPI#UNDEFINED} if
     *     the bytes are not a whole number of them ({@code MPI_GET_COUNT})
     */
    public int getCount(Datatype datatype) throws MPIException {
        Typemap map = map(datatype);
        if (map.size() == 0) {
            return 0;
        }
        long n = bytes / map.size();
        return bytes % map.size() != 0 || n > Integer.MAX_VALUE ? MPI.UNDEFINED : (int) n;
    }

    /** @return whether the communication was cancelled ({@code MPI_TEST_CANCELLED}) */
    public boolean isCancelled() throws MPIException {
        MPI.check();
        return cancelled;
    }

    /** @return the number of primitive elements received ({@code MPI_GET_ELEMENTS}) */
    public int getElements(Datatype datatype) throws MPIException {
        long n = map(datatype).elementsIn(bytes);
        return n > Integer.MAX_VALUE ? MPI.UNDEFINED : (int) n;
    }

    /** @return the number of primitive elements received ({@code MPI_GET_ELEMENTS_X}) */
    public Count getElementsX(Datatype datatype) throws MPIException {
        return new Count(map(datatype).elementsIn(bytes));
    }

    /** Sets the length to {@code count} primitive elements of {@code datatype} ({@code MPI_STATUS_SET_ELEMENTS}). */
    public void setElements(Datatype datatype, int count) throws MPIException {
        setElementsX(datatype, new Count(count));
    }

    /** Sets the length to {@code count} primitive elements of {@code datatype} ({@code MPI_STATUS_SET_ELEMENTS_X}). */
    public void setElementsX(Datatype datatype, Count count) throws MPIException {
        Typemap map = map(datatype);
        long n = count.getCount();
        if (n < 0) {
            throw Errors.raise(new MpiError(MPI.ERR_COUNT, "setElements: count " + n + " is negative"));
        }
        bytes = map.elements() == 0 ? 0 : n / map.elements() * map.size() + map.bytesOfElements(n % map.elements());
    }

    /** Sets whether the status says cancelled ({@code MPI_STATUS_SET_CANCELLED}). */
    public void setCancelled(boolean flag) throws MPIException {
        MPI.check();
        cancelled = flag;
    }

    /** @return the rank the message came from ({@code MPI_SOURCE}) */
    public int getSource() {
        return source;
    }

    /** @return the message's tag ({@code MPI_TAG}) */
    public int getTag() {
        return tag;
    }

    /** @return the error class the communication ended with, {@code MPI.SUCCESS} if none ({@code MPI_ERROR}) */
    public int getError() {
        return error;
    }

    /** @return which request of an array completed, for {@code waitAny} and {@code waitSome} */
    public int getIndex() {
        return index;
    }

    private static Typemap map(Datatype datatype) throws MPIException {
        MPI.check();
        try {
            return Datatype.layout(datatype);
        } catch (MpiError e) {
            throw Errors.raise(e);
        }
    }

    @Override
    public String toString() {
        return "Status[source " + source + ", tag " + tag + ", error " + error + ", " + bytes + " bytes"
            + (cancelled ? ", cancelled" : "") + "]";
    }
}
