package io.polylink.core.internal.flow;

import io.polylink.core.internal.buffer.LentBytes;
import io.polylink.core.internal.buffer.SharedStore;
import io.polylink.core.internal.wire.EncodedTable;
import java.nio.ByteBuffer;

/** A numbered RSR kept until the peer acknowledges it; recycled after, copy and all. */
final class Pending {
    int sequence;
    int endpoint;
    int handler;
    /**
     * The copy; direct above {@link RetransmitStore#SMALL_COPY}, because a socket write takes
     * direct memory as it is and first copies a heap buffer into a direct one
     * (docs/performance-notes.md#flow-constants).
     */
    ByteBuffer copy = ByteBuffer.allocate(64);
    /** The sender's store, kept instead of a copy, and a view of it; or {@code null}. */
    SharedStore held;
    ByteBuffer view;
    /**
     * Bytes the application lent, which follow the copy of the RSR's own bytes, and a view of
     * them; or {@code null}.
     */
    LentBytes lent;
    ByteBuffer lentView;
    int length;
    EncodedTable[] tables;
    int tableCount;
}
