package io.polylink.mpi.internal.p2p;

import io.polylink.MalformedMessageException;
import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.datatype.Cursor;
import io.polylink.mpi.internal.datatype.Memory;
import io.polylink.mpi.internal.datatype.Typemap;
import io.polylink.mpi.internal.datatype.WireReader;
import io.polylink.mpi.internal.request.Operation;
import io.polylink.mpi.internal.wire.Envelope;

/**
 * A posted receive: what it matches, where its data goes, and, once a rendezvous began, how far
 * the data came. A message longer than the buffer fills the buffer and completes the receive
 * with {@code ERR_TRUNCATE}; the status then counts the buffer's bytes.
 */
final class ReceiveOperation extends Operation {

    final int context;
    /** The job rank to match, or {@link PointToPoint#ANY}. */
    final int source;
    final int tag;
    final long capacity;
    private final Memory memory;
    private final Typemap map;
    private final long count;
    private final RankMap ranks;
    private final Matcher matcher;

    ReceiveOperation next;
    ReceiveOperation previous;
    boolean posted;

    private Cursor cursor;
    private long length;
    private long accepted;
    private int from;
    private int fromTag;

    ReceiveOperation(int context, int source, int tag, Memory memory, Typemap map, long count, RankMap ranks,
                     Matcher matcher) {
        this.context = context;
        this.source = source;
        this.tag = tag;
        this.memory = memory;
        this.map = map;
        this.count = count;
        this.capacity = map.size() * count;
        this.ranks = ranks;
        this.matcher = matcher;
    }

    boolean matches(Envelope e) {
        return e.context() == context
            && (source == PointToPoint.ANY || source == e.source())
            && (tag == PointToPoint.ANY || tag == e.tag())
            && ranks.rankOf(e.source()) >= 0;
    }

    /**
     * @return whether a message from rank {@code worldRank} of the job could complete this receive:
     *     it names that rank, or any rank of a communicator that holds it, or it is a rendezvous
     *     with that rank under way
     */
    synchronized boolean awaits(int worldRank) {
        if (cursor != null) {
            return from == worldRank;
        }
        return source == worldRank || source == PointToPoint.ANY && ranks.rankOf(worldRank) >= 0;
    }

    /** Takes a whole message: unpacks what fits and completes. */
    void takeEager(Envelope e, WireReader data, long bytes) {
        Cursor.unpackAll(memory, map, count, data, Math.min(bytes, capacity));
        finish(e.source(), e.tag(), bytes);
    }

    /**
     * Starts taking a large message announced by {@code rts}.
     *
     * @return the bytes to ask the sender for: the message's length, or the buffer's if that is less
     */
    synchronized long beginRendezvous(Envelope rts) {
        cursor = new Cursor(memory, map, count);
        length = rts.bytes();
        accepted = Math.min(length, capacity);
        from = rts.source();
        fromTag = rts.tag();
        return accepted;
    }

    /** Completes a rendezvous that asked for no data: the buffer had no room. */
    void endEmptyRendezvous() {
        finish(from, fromTag, length);
    }

    /**
     * Takes a chunk of the message, the chunk at the read index of {@code data}.
     *
     * @return whether the message is complete
     * @throws MalformedMessageException if the chunk is not the next one or goes past what was asked for
     */
    synchronized boolean takeData(long offset, WireReader data, int bytes, boolean last) {
        if (isDone()) {
            throw new MalformedMessageException("malformed mpi message: DATA for a receive that completed");
        }
        if (offset != cursor.done() || bytes > accepted - offset) {
            throw new MalformedMessageException("malformed mpi message: DATA of " + bytes + " bytes at offset "
                + offset + " for a receive that has " + cursor.done() + " of the " + accepted + " bytes it asked for");
        }
        long took = cursor.unpack(data, bytes);
        if (took != bytes) {
            complete(ranks.rankOf(from), fromTag, cursor.done(), new MpiError(ErrorClass.ERR_TYPE,
                "the data from rank " + from + " (tag " + fromTag + ") does not divide into the elements of the "
                    + "receive's datatype: the sender's and receiver's datatypes do not match"));
            return true;
        }
        if (last) {
            finish(from, fromTag, length);
            return true;
        }
        return false;
    }

    private void finish(int world, int messageTag, long bytes) {
        if (bytes <= capacity) {
            complete(ranks.rankOf(world), messageTag, bytes, null);
        } else {
            complete(ranks.rankOf(world), messageTag, capacity, new MpiError(ErrorClass.ERR_TRUNCATE,
                "a message of " + bytes + " bytes from rank " + ranks.rankOf(world) + " with tag " + messageTag
                    + " does not fit the receive buffer of " + capacity + " bytes; its first " + capacity
                    + " bytes were received"));
        }
    }

    /** Completes the receive with {@code error}, if nothing did yet. */
    void fail(MpiError error) {
        complete(source == PointToPoint.ANY ? PointToPoint.ANY : ranks.rankOf(source), tag, 0, error);
    }

    @Override
    public void cancel() {
        if (matcher.withdraw(this)) {
            completeCancelled(source == PointToPoint.ANY ? PointToPoint.ANY : ranks.rankOf(source), tag);
        }
    }
}
