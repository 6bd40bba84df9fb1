package io.polylink.mpi.internal.coll.schedule;

/**
 * The tags of one collective call's messages at this rank: the call's number on its communicator
 * (the same at every rank) and each message's number between this rank and its peer, counted per
 * direction, so the two ranks number their messages alike.
 */
final class CallTags {

    /** Bits of a tag for the collective's number on its communicator. */
    static final int SEQUENCE_BITS = 18;
    /** Bits of a tag for the message's number between its two ranks. */
    static final int MESSAGE_BITS = 12;

    private final int sequence;
    private final int[] sent;
    private final int[] received;

    /**
     * @param sequence the collective's number on the communicator
     * @param size the communicator's size
     */
    CallTags(int sequence, int size) {
        this.sequence = sequence;
        this.sent = new int[size];
        this.received = new int[size];
    }

    /** @return the number of ranks of the communicator */
    int size() {
        return sent.length;
    }

    /** @return the tag of the next message to rank {@code to} */
    int toward(int to) {
        return tag(sent[to]++);
    }

    /** @return the tag of the next message from rank {@code from} */
    int from(int from) {
        return tag(received[from]++);
    }

    private int tag(int message) {
        return (sequence & ((1 << SEQUENCE_BITS) - 1)) << MESSAGE_BITS | (message & ((1 << MESSAGE_BITS) - 1));
    }
}
