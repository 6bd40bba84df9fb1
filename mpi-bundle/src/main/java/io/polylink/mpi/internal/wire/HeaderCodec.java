package io.polylink.mpi.internal.wire;

import io.polylink.MalformedMessageException;
import io.polylink.MessageBuffer;
import io.polylink.mpi.internal.shared.SharedBytes;

/**
 * Writes and reads {@link Header}s. Writers append in layout order to an empty buffer; the
 * data, if any, is appended after them. {@link #decode} checks everything it reads.
 */
public final class HeaderCodec {

    private HeaderCodec() {}

    public static void eager(MessageBuffer m, int context, int source, int tag) {
        prefix(m, Header.EAGER, 0);
        envelope(m, context, source, tag);
        assert m.length() == Header.EAGER_LENGTH;
    }

    public static void eagerSync(MessageBuffer m, int context, int source, int tag, long request) {
        prefix(m, Header.EAGER, Header.FLAG_SYNC);
        envelope(m, context, source, tag);
        m.putLong(request);
        assert m.length() == Header.EAGER_SYNC_LENGTH;
    }

    public static void rts(MessageBuffer m, int context, int source, int tag, long request, long length) {
        prefix(m, Header.RTS, 0);
        envelope(m, context, source, tag);
        m.putLong(request).putLong(length);
        assert m.length() == Header.RTS_LENGTH;
    }

    /** An RTS whose data lies in a buffer the host's ranks share, at {@code where}. */
    public static void rtsShared(MessageBuffer m, int context, int source, int tag, long request, long length,
                                 SharedBytes where) {
        prefix(m, Header.RTS, Header.FLAG_SHARED);
        envelope(m, context, source, tag);
        m.putLong(request).putLong(length).putLong(where.pid()).putLong(where.token()).putLong(where.offset());
        assert m.length() == Header.RTS_SHARED_LENGTH;
    }

    public static void cts(MessageBuffer m, long senderRequest, long receiverRequest, long accepted) {
        prefix(m, Header.CTS, 0);
        m.putLong(senderRequest).putLong(receiverRequest).putLong(accepted);
        assert m.length() == Header.CTS_LENGTH;
    }

    public static void data(MessageBuffer m, long receiverRequest, long offset, boolean last) {
        prefix(m, Header.DATA, last ? Header.FLAG_LAST : 0);
        m.putLong(receiverRequest).putLong(offset);
        assert m.length() == Header.DATA_LENGTH;
    }

    public static void syncAck(MessageBuffer m, long senderRequest) {
        prefix(m, Header.SYNC_ACK, 0);
        m.putLong(senderRequest);
        assert m.length() == Header.ACK_LENGTH;
    }

    /** FIN or BYE. */
    public static void farewell(MessageBuffer m, int kind, int worldRank) {
        prefix(m, kind, 0);
        m.putInt(worldRank);
        assert m.length() == Header.FIN_LENGTH;
    }

    public static void ping(MessageBuffer m, int worldRank) {
        prefix(m, Header.PING, 0);
        m.putInt(worldRank);
        assert m.length() == Header.FIN_LENGTH;
    }

    public static void fence(MessageBuffer m, int worldRank, long senderRequest) {
        prefix(m, Header.FENCE, 0);
        m.putInt(worldRank).putLong(senderRequest);
        assert m.length() == Header.FENCE_LENGTH;
    }

    public static void abort(MessageBuffer m, int worldRank, int code) {
        prefix(m, Header.ABORT, 0);
        m.putInt(worldRank).putInt(code);
        assert m.length() == Header.ABORT_LENGTH;
    }

    /** The version and kind byte, the flags byte and two reserved zero bytes, as one big-endian int. */
    private static void prefix(MessageBuffer m, int kind, int flags) {
        m.putInt((Header.VERSION << 4 | kind) << 24 | (flags & 0xFF) << 16);
    }

    /** Context, source and tag, four bytes each: the first two as one long, for one call fewer. */
    private static void envelope(MessageBuffer m, int context, int source, int tag) {
        m.putLong((long) context << 32 | source & 0xFFFFFFFFL).putInt(tag);
    }

    /**
     * Reads the header at {@code m}'s read index and leaves the index at the data.
     *
     * @return the header's fields
     * @throws MalformedMessageException naming the field, if the header is short, of another
     *     version, of an unknown kind, carries flags its kind does not have, or holds a negative
     *     context, rank, length or offset
     */
    public static Envelope decode(MessageBuffer m) {
        if (m.remaining() < Header.PREFIX_LENGTH) {
            throw malformed("a message of " + m.remaining() + " bytes is shorter than the "
                + Header.PREFIX_LENGTH + " every header starts with");
        }
        int prefix = m.getInt();
        int version = prefix >>> 28;
        int kind = prefix >>> 24 & 0xF;
        int flags = prefix >>> 16 & 0xFF;
        int reserved = prefix & 0xFFFF;
        if (version != Header.VERSION) {
            throw malformed("header version " + version + "; this engine reads version " + Header.VERSION);
        }
        if (kind < Header.EAGER || kind > Header.LAST_KIND) {
            throw malformed("unknown message kind " + kind);
        }
        if ((flags & ~Header.flagsAllowed(kind)) != 0) {
            throw malformed(Header.name(kind) + " with flags 0x" + Integer.toHexString(flags));
        }
        if (reserved != 0) {
            throw malformed(Header.name(kind) + " with 0x" + Integer.toHexString(reserved & 0xFFFF)
                + " in its reserved bytes");
        }
        return switch (kind) {
            case Header.EAGER -> matched(m, kind, flags,
                (flags & Header.FLAG_SYNC) != 0 ? Header.EAGER_SYNC_LENGTH : Header.EAGER_LENGTH);
            case Header.RTS -> matched(m, kind, flags,
                (flags & Header.FLAG_SHARED) != 0 ? Header.RTS_SHARED_LENGTH : Header.RTS_LENGTH);
            case Header.CTS -> {
                need(m, kind, Header.CTS_LENGTH);
                long sender = m.getLong();
                long receiver = m.getLong();
                long accepted = nonNegative(m.getLong(), kind, "accepted length");
                yield new Envelope(kind, flags, 0, 0, 0, sender, receiver, accepted);
            }
            case Header.DATA -> {
                need(m, kind, Header.DATA_LENGTH);
                long receiver = m.getLong();
                long offset = nonNegative(m.getLong(), kind, "offset");
                yield new Envelope(kind, flags, 0, 0, 0, receiver, 0, offset);
            }
            case Header.SYNC_ACK -> {
                need(m, kind, Header.ACK_LENGTH);
                yield new Envelope(kind, flags, 0, 0, 0, m.getLong(), 0, 0);
            }
            case Header.FENCE -> {
                need(m, kind, Header.FENCE_LENGTH);
                int rank = (int) nonNegative(m.getInt(), kind, "rank");
                yield new Envelope(kind, flags, 0, rank, 0, m.getLong(), 0, 0);
            }
            case Header.ABORT -> {
                need(m, kind, Header.ABORT_LENGTH);
                int rank = (int) nonNegative(m.getInt(), kind, "rank");
                yield new Envelope(kind, flags, 0, rank, 0, 0, 0, m.getInt());
            }
            default -> { // FIN, BYE, PING
                need(m, kind, Header.FIN_LENGTH);
                yield new Envelope(kind, flags, 0, (int) nonNegative(m.getInt(), kind, "rank"), 0, 0, 0, 0);
            }
        };
    }

    private static Envelope matched(MessageBuffer m, int kind, int flags, int length) {
        need(m, kind, length);
        long contextSource = m.getLong();
        int context = (int) nonNegative(contextSource >> 32, kind, "context");
        int source = (int) nonNegative((int) contextSource, kind, "source rank");
        int tag = m.getInt();
        long request = 0;
        long bytes = 0;
        SharedBytes shared = null;
        if (length > Header.EAGER_LENGTH) {
            request = m.getLong();
        }
        if (kind == Header.RTS) {
            bytes = m.getLong();
            if (bytes <= 0) {
                throw malformed("RTS announcing " + bytes + " bytes");
            }
            if ((flags & Header.FLAG_SHARED) != 0) {
                long pid = nonNegative(m.getLong(), kind, "process id");
                long token = m.getLong();
                shared = new SharedBytes(pid, token, nonNegative(m.getLong(), kind, "shared offset"));
            }
        }
        return new Envelope(kind, flags, context, source, tag, request, 0, bytes, shared);
    }

    private static void need(MessageBuffer m, int kind, int length) {
        // The prefix is read already.
        if (m.remaining() < length - Header.PREFIX_LENGTH) {
            throw malformed(Header.name(kind) + " header of " + (m.remaining() + Header.PREFIX_LENGTH)
                + " bytes; it needs " + length);
        }
    }

    private static long nonNegative(long value, int kind, String field) {
        if (value < 0) {
            throw malformed(Header.name(kind) + " with " + field + " " + value);
        }
        return value;
    }

    private static MalformedMessageException malformed(String what) {
        return new MalformedMessageException("malformed mpi message: " + what);
    }
}
