package io.polylink.mpi.internal.p2p;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.datatype.ArrayWriter;
import io.polylink.mpi.internal.datatype.Cursor;
import io.polylink.mpi.internal.datatype.Kind;
import io.polylink.mpi.internal.datatype.Memories;
import io.polylink.mpi.internal.datatype.Memory;
import io.polylink.mpi.internal.datatype.Typemap;
import io.polylink.mpi.internal.request.Completed;
import io.polylink.mpi.internal.request.Operation;
import java.util.Map;
import java.util.TreeMap;

/**
 * Buffered-mode sends ({@code MPI_Bsend}) through the buffer the application attached: each
 * message is packed into a free region of it, the send completes at once, and the region is free
 * again when the packed copy was handed over. A message needs its packed size plus
 * {@link #OVERHEAD} bytes. Thread-safe.
 */
public final class BufferedSends {

    /** {@code MPI.BSEND_OVERHEAD}: bytes each buffered message takes beyond its data. */
    public static final int OVERHEAD = 128;

    private static final Typemap BYTES = Typemap.basic(Kind.BYTE);

    private byte[] buffer;
    private final TreeMap<Integer, Integer> free = new TreeMap<>();
    private int pending;
    private MpiError failure;

    /** @throws MpiError {@code ERR_BUFFER} if a buffer is attached already */
    public synchronized void attach(byte[] attached) {
        if (buffer != null) {
            throw new MpiError(ErrorClass.ERR_BUFFER, "a buffer of " + buffer.length
                + " bytes is attached already; detach it before attaching another");
        }
        if (attached == null) {
            throw new MpiError(ErrorClass.ERR_BUFFER, "cannot attach a null buffer");
        }
        buffer = attached;
        free.clear();
        if (attached.length > 0) {
            free.put(0, attached.length);
        }
    }

    /**
     * Waits until every buffered message was handed over, then detaches the buffer.
     *
     * @return the buffer, or {@code null} if none was attached
     * @throws MpiError the first failure of a buffered send since the buffer was attached, after detaching
     */
    public synchronized byte[] detach() throws InterruptedException {
        while (pending > 0) {
            wait();
        }
        byte[] b = buffer;
        buffer = null;
        free.clear();
        MpiError f = failure;
        failure = null;
        if (f != null) {
            throw f;
        }
        return b;
    }

    /**
     * Packs the message into the attached buffer and starts sending the copy.
     *
     * @return a send that is complete: the data is in the buffer
     * @throws MpiError {@code ERR_BUFFER} if the attached buffer has no free region large enough
     */
    public Operation send(PointToPoint p2p, int context, int destination, int rank, int tag, Memory memory,
                          Typemap map, long count) {
        long bytes = map.size() * count;
        long need = bytes + OVERHEAD;
        byte[] target;
        int at;
        synchronized (this) {
            target = buffer;
            at = reserve(need, bytes);
            pending++;
        }
        try {
            new Cursor(memory, map, count).pack(new ArrayWriter(target, at), bytes);
            Operation copy = p2p.send(context, destination, rank, tag, Memories.ofBytes(target, at), BYTES, bytes, false);
            copy.whenDone(() -> release(at, (int) need, copy.error()));
        } catch (MpiError e) {
            release(at, (int) need, null);
            throw e;
        }
        return new Completed(rank, tag, bytes, null);
    }

    private int reserve(long need, long bytes) {
        if (buffer == null) {
            throw new MpiError(ErrorClass.ERR_BUFFER, "a buffered send needs a buffer attached with MPI.attachBuffer");
        }
        for (Map.Entry<Integer, Integer> region : free.entrySet()) {
            if (region.getValue() >= need) {
                int at = region.getKey();
                int left = region.getValue() - (int) need;
                free.remove(at);
                if (left > 0) {
                    free.put(at + (int) need, left);
                }
                return at;
            }
        }
        int largest = free.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        throw new MpiError(ErrorClass.ERR_BUFFER, "a buffered send of " + bytes + " bytes needs " + need
            + " bytes of the attached buffer (with MPI.BSEND_OVERHEAD), but its largest free region has " + largest
            + " of its " + buffer.length + ": attach a larger buffer, or wait for earlier buffered sends");
    }

    private synchronized void release(int at, int length, MpiError error) {
        if (error != null && failure == null) {
            failure = error;
        }
        int start = at;
        int size = length;
        Map.Entry<Integer, Integer> before = free.floorEntry(at);
        if (before != null && before.getKey() + before.getValue() == at) {
            start = before.getKey();
            size += before.getValue();
            free.remove(before.getKey());
        }
        Integer after = free.get(at + length);
        if (after != null) {
            free.remove(at + length);
            size += after;
        }
        free.put(start, size);
        pending--;
        notifyAll();
    }
}
