package io.polylink.mpi.internal.wire;

import io.polylink.mpi.internal.shared.SharedBytes;

/**
 * A decoded header. Which fields a kind uses, as {@link Header} lays them out; the others are 0.
 *
 * @param kind one of {@link Header}'s kinds
 * @param flags the kind's flags
 * @param context EAGER, RTS: the communicator context id
 * @param source EAGER, RTS: the sender's rank in the communicator; FIN, BYE, PING, FENCE, ABORT: its world rank
 * @param tag EAGER, RTS: the message tag
 * @param request EAGER with {@link Header#FLAG_SYNC}, RTS, CTS, SYNC_ACK, FENCE: the sender's request;
 *     DATA: the receiver's request
 * @param reply CTS: the receiver's request
 * @param bytes RTS: the message's length; CTS: the length the receiver accepts; DATA: the offset of
 *     the chunk in the message; ABORT: the error code
 * @param shared RTS with {@link Header#FLAG_SHARED}: where the data lies; otherwise {@code null}
 */
public record Envelope(int kind, int flags, int context, int source, int tag, long request, long reply, long bytes,
                       SharedBytes shared) {

    public Envelope(int kind, int flags, int context, int source, int tag, long request, long reply, long bytes) {
        this(kind, flags, context, source, tag, request, reply, bytes, null);
    }

    /** @return whether {@code flag} is set */
    public boolean has(int flag) {
        return (flags & flag) != 0;
    }

    @Override
    public String toString() {
        return switch (kind) {
            case Header.EAGER -> "EAGER context " + context + " source " + source + " tag " + tag
                + (has(Header.FLAG_SYNC) ? " sync " + request : "");
            case Header.RTS -> "RTS context " + context + " source " + source + " tag " + tag + " request " + request
                + " length " + bytes + (shared == null ? "" : " shared " + shared);
            case Header.CTS -> "CTS request " + request + " reply " + reply + " accepted " + bytes;
            case Header.DATA -> "DATA request " + request + " offset " + bytes + (has(Header.FLAG_LAST) ? " last" : "");
            case Header.SYNC_ACK -> "SYNC_ACK request " + request;
            case Header.ABORT -> "ABORT rank " + source + " code " + bytes;
            case Header.FENCE -> "FENCE rank " + source + " request " + request;
            default -> Header.name(kind) + " rank " + source;
        };
    }
}
