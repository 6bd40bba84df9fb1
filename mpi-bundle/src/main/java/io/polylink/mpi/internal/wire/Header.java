package io.polylink.mpi.internal.wire;

/**
 * Layout of the header at the start of every RSR the engine sends; the data, if any, follows it.
 * Network byte order. Every RSR goes to handler {@link #INLINE_HANDLER}; the kind says what it is.
 *
 * <pre>
 * every message
 *   0       1       2       3       4
 *   +-------+-------+-------+-------+
 *   |ver|knd| flags |    (zero)     |
 *   +-------+-------+-------+-------+
 *
 * EAGER and RTS: the envelope a receive matches
 *   4               8               12              16
 *   +-------+-------+-------+-------+-------+-------+
 *   |    context    |    source     |      tag      |
 *   +-------+-------+-------+-------+-------+-------+
 *   EAGER      16 [sender's request, with FLAG_SYNC]  then the data
 *   RTS        16 sender's request   24 length                          32
 *              with FLAG_SHARED:     32 owner's pid  40 token  48 offset  56
 *
 * CTS          4 sender's request    12 receiver's request  20 accepted 28
 * DATA         4 receiver's request  12 offset              20 then the data
 * SYNC_ACK     4 sender's request                                       12
 * FIN, BYE     4 world rank                                             8
 * PING         4 world rank                                             8
 * FENCE        4 world rank           8 sender's request                16
 * ABORT        4 world rank           8 error code                      12
 * </pre>
 *
 * <ul>
 *   <li>ver (high 4 bits): {@link #VERSION}; knd (low 4 bits): one of the kinds below.
 *   <li>context: the communicator's context id (point-to-point traffic on even ids, its
 *       collective traffic on the odd id above). source: the sender's rank in that communicator.
 *   <li>requests: ids in the named side's request table, echoed back unchanged; a stale or
 *       unknown id is dropped by the table, never trusted.
 *   <li>length: the whole message's data in bytes; accepted: how much of it the receiver takes
 *       (less when its buffer is smaller: truncation); offset: where a DATA chunk's bytes start
 *       within the message.
 * </ul>
 */
public final class Header {

    /** The only version this engine reads or writes. */
    public static final int VERSION = 1;

    /** The handler id of every kind: runs inline on the delivering thread. */
    public static final int INLINE_HANDLER = 1;

    /** A whole message, matched on arrival. */
    public static final int EAGER = 1;
    /** Request to send: the envelope and length of a large message, matched on arrival. */
    public static final int RTS = 2;
    /** Clear to send: the receiver matched an RTS and names where the data goes. */
    public static final int CTS = 3;
    /** A chunk of a large message's data. */
    public static final int DATA = 4;
    /** A synchronous-mode eager message was matched. */
    public static final int SYNC_ACK = 5;
    /** A rank entered {@code MPI_Finalize}. */
    public static final int FIN = 6;
    /** A rank has every other rank's FIN and will close. */
    public static final int BYE = 7;
    /** A rank aborted the job. */
    public static final int ABORT = 8;
    /**
     * A rank makes sure its link to another still works; the receiver ignores it. A peer whose
     * process died fails the send (see {@code p2p.Liveness}).
     */
    public static final int PING = 9;
    /**
     * A rank's links to another change: the receiver has every message that came before, and
     * answers {@link #SYNC_ACK}.
     */
    public static final int FENCE = 10;
    /** The highest kind. */
    public static final int LAST_KIND = FENCE;

    /** On EAGER: the sender waits for {@link #SYNC_ACK}; the sender's request follows the tag. */
    public static final int FLAG_SYNC = 0x1;
    /** On DATA: the last chunk of the message. */
    public static final int FLAG_LAST = 0x2;
    /**
     * On RTS: the data lies in a buffer the host's ranks share, in the segment file of process
     * {@code pid} named by {@code token}, from {@code offset}; a receiver that can read it there
     * copies it and answers {@link #SYNC_ACK}, one that cannot answers {@link #CTS} as to any RTS.
     */
    public static final int FLAG_SHARED = 0x4;

    public static final int VERSION_KIND_OFFSET = 0;
    public static final int FLAGS_OFFSET = 1;
    public static final int RESERVED_OFFSET = 2;
    public static final int PREFIX_LENGTH = 4;

    public static final int CONTEXT_OFFSET = 4;
    public static final int SOURCE_OFFSET = 8;
    public static final int TAG_OFFSET = 12;
    /** EAGER without {@link #FLAG_SYNC}: the data starts here. */
    public static final int EAGER_LENGTH = 16;
    public static final int SYNC_REQUEST_OFFSET = 16;
    /** EAGER with {@link #FLAG_SYNC}: the data starts here. */
    public static final int EAGER_SYNC_LENGTH = 24;

    public static final int RTS_REQUEST_OFFSET = 16;
    public static final int RTS_SIZE_OFFSET = 24;
    public static final int RTS_LENGTH = 32;
    public static final int RTS_PID_OFFSET = 32;
    public static final int RTS_TOKEN_OFFSET = 40;
    public static final int RTS_AT_OFFSET = 48;
    public static final int RTS_SHARED_LENGTH = 56;

    public static final int CTS_SENDER_OFFSET = 4;
    public static final int CTS_RECEIVER_OFFSET = 12;
    public static final int CTS_ACCEPTED_OFFSET = 20;
    public static final int CTS_LENGTH = 28;

    public static final int DATA_REQUEST_OFFSET = 4;
    public static final int DATA_OFFSET_OFFSET = 12;
    /** DATA: the chunk's bytes start here. */
    public static final int DATA_LENGTH = 20;

    public static final int ACK_REQUEST_OFFSET = 4;
    public static final int ACK_LENGTH = 12;

    public static final int RANK_OFFSET = 4;
    public static final int FIN_LENGTH = 8;
    public static final int CODE_OFFSET = 8;
    public static final int ABORT_LENGTH = 12;
    public static final int FENCE_REQUEST_OFFSET = 8;
    public static final int FENCE_LENGTH = 16;

    private Header() {}

    /** @return the flags a message of {@code kind} may carry */
    static int flagsAllowed(int kind) {
        return switch (kind) {
            case EAGER -> FLAG_SYNC;
            case DATA -> FLAG_LAST;
            case RTS -> FLAG_SHARED;
            default -> 0;
        };
    }

    /** @return the kind's name, for errors */
    public static String name(int kind) {
        return switch (kind) {
            case EAGER -> "EAGER";
            case RTS -> "RTS";
            case CTS -> "CTS";
            case DATA -> "DATA";
            case SYNC_ACK -> "SYNC_ACK";
            case FIN -> "FIN";
            case BYE -> "BYE";
            case ABORT -> "ABORT";
            case PING -> "PING";
            case FENCE -> "FENCE";
            default -> "kind " + kind;
        };
    }
}
