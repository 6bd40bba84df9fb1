package io.polylink.method.shm.internal.segment;

/**
 * The layout of an inbox segment, the one file each context owns in the segment directory: many
 * producers (the contexts sending to it) and one consumer (its owner). All multi-byte fields are
 * in the host's native order: a segment never leaves the host that made it.
 *
 * <pre>
 *  0               8       12      16      20      24      28      32              48
 *  | magic         |version| state |ringCap|slots  |slotLen|wakePort| owner context id |
 *  48              56              64              72              80
 *  | owner pid     | owner start ms| heartbeat count| heartbeat ms  |
 *  128: tail (producers claim)     own cache line
 *  192: head (consumer releases)   own cache line
 *  256: parked (consumer sleeps)   own cache line
 *  HEADER_LENGTH (512): slot 0 .. slot n-1, SLOT_LENGTH bytes each
 *  then the ring, ringCap bytes (a power of two)
 * </pre>
 *
 * <p>A producer slot describes one sending connection, so records need only its index:
 *
 * <pre>
 *  0               8               16                              32       36
 *  | state         | session       | producer context id            |addrLen | address ...
 *  state = pid &lt;&lt; 2 | phase   (phase 0 free, 1 claimed and being filled, 2 active,
 *                                3 refused: the owner could not answer this producer)
 * </pre>
 *
 * <p>A record in the ring starts with one 64-bit header word, so claiming, committing and
 * skipping a record are each a single compare-and-set:
 *
 * <pre>
 *  header = (type &lt;&lt; 24 | flags &lt;&lt; 16 | slot) &lt;&lt; 32 | length   (length includes the header)
 *  length &lt; 0: claimed, being written      length &gt; 0: committed      0: free
 *  records start on 8-byte boundaries and never straddle the ring's end (a PADDING record fills it)
 * </pre>
 */
public final class InboxLayout {

    /** "PLSHMIB1" read as a little-endian long. */
    public static final long MAGIC = 0x3142494D48534C50L;
    public static final int VERSION = 1;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 8;
    public static final int STATE_OFFSET = 12;
    public static final int RING_CAPACITY_OFFSET = 16;
    public static final int SLOT_COUNT_OFFSET = 20;
    public static final int SLOT_LENGTH_OFFSET = 24;
    public static final int WAKE_PORT_OFFSET = 28;
    public static final int OWNER_HIGH_OFFSET = 32;
    public static final int OWNER_LOW_OFFSET = 40;
    public static final int OWNER_PID_OFFSET = 48;
    public static final int OWNER_START_OFFSET = 56;
    public static final int HEARTBEAT_COUNT_OFFSET = 64;
    public static final int HEARTBEAT_MILLIS_OFFSET = 72;
    public static final int TAIL_OFFSET = 128;
    public static final int HEAD_OFFSET = 192;
    public static final int PARKED_OFFSET = 256;
    public static final int HEADER_LENGTH = 512;

    /** Inbox states. */
    public static final int STATE_OPEN = 1;
    /** Its owner stopped. */
    public static final int STATE_CLOSED = 2;
    /** Its owner found it corrupt, truncated or no longer under its name, and makes a fresh one. */
    public static final int STATE_ABANDONED = 3;

    public static final int SLOT_STATE_OFFSET = 0;
    public static final int SLOT_SESSION_OFFSET = 8;
    public static final int SLOT_PEER_HIGH_OFFSET = 16;
    public static final int SLOT_PEER_LOW_OFFSET = 24;
    public static final int SLOT_ADDRESS_LENGTH_OFFSET = 32;
    public static final int SLOT_ADDRESS_OFFSET = 36;
    public static final int SLOT_LENGTH = 512;
    public static final int MAX_ADDRESS = SLOT_LENGTH - SLOT_ADDRESS_OFFSET;

    public static final long SLOT_FREE = 0;
    public static final long SLOT_CLAIMED = 1;
    public static final long SLOT_ACTIVE = 2;
    /**
     * The owner could not open the producer's inbox to answer it: the producer ends the connection
     * when it sees this, and its links try again later.
     */
    public static final long SLOT_REFUSED = 3;

    public static final int RECORD_HEADER = 8;
    public static final int ALIGNMENT = 8;

    /** Record types. */
    public static final int TYPE_PADDING = 1;
    /** First record of a producer session: {@code ack:i64}, the receiver's session it answers, or 0. */
    public static final int TYPE_OPEN = 2;
    public static final int TYPE_DATA = 3;
    /** Last record of a producer session; the consumer then frees the slot. */
    public static final int TYPE_CLOSE = 4;

    /** Data flags: a frame too large for one record travels as BEGIN, middles, END. */
    public static final int FLAG_BEGIN = 1;
    public static final int FLAG_END = 2;

    public static final int MIN_RING = 64 * 1024;
    public static final int MAX_RING = 1 << 30;
    public static final int MAX_SLOTS = 1024;

    private InboxLayout() {}

    public static int slotOffset(int slot) {
        return HEADER_LENGTH + slot * SLOT_LENGTH;
    }

    public static int ringOffset(int slots) {
        return HEADER_LENGTH + slots * SLOT_LENGTH;
    }

    public static long segmentLength(int slots, int ringCapacity) {
        return (long) ringOffset(slots) + ringCapacity;
    }

    /** @return the largest record (header included) a ring of this capacity takes */
    public static int maxRecord(int ringCapacity) {
        return ringCapacity / 8;
    }

    public static int align(int length) {
        return (length + ALIGNMENT - 1) & -ALIGNMENT;
    }

    public static long header(int type, int flags, int slot, int length) {
        return (long) (type << 24 | flags << 16 | slot) << 32 | (length & 0xFFFFFFFFL);
    }

    public static int length(long header) {
        return (int) header;
    }

    public static int type(long header) {
        return (int) (header >>> 56);
    }

    public static int flags(long header) {
        return (int) (header >>> 48) & 0xFF;
    }

    public static int slot(long header) {
        return (int) (header >>> 32) & 0xFFFF;
    }

    public static long slotState(long pid, long phase) {
        return pid << 2 | phase;
    }

    /** @return the process id in a producer slot's state word */
    public static long slotPid(long slotState) {
        return slotState >>> 2;
    }

    /** @return the phase in a producer slot's state word: {@link #SLOT_FREE} to {@link #SLOT_REFUSED} */
    public static long slotPhase(long slotState) {
        return slotState & 3;
    }
}
