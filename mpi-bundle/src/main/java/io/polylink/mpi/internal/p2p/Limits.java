package io.polylink.mpi.internal.p2p;

import io.polylink.mpi.internal.request.Idle;
import java.util.function.BooleanSupplier;

/**
 * The engine's parameters.
 *
 * @param eagerLimit messages of at most this many bytes travel whole; larger ones by rendezvous.
 *     64 KiB by default: over shm and tcp a message of up to 256 KiB arrives sooner whole than by
 *     rendezvous, whose extra round trip costs more than the receiver's copy of data that came
 *     early, and 64 KiB keeps what one early message may hold at the receiver small
 * @param chunk bytes of data per DATA message of a rendezvous over shm: 64 KiB by default, which
 *     shm's default ring takes as one record (an eighth of it), and small enough that the receiver
 *     unpacks one chunk while the next is packed
 * @param streamChunk the same over any other method (tcp): 1 MiB by default. Each chunk costs a
 *     frame, its system calls and its acknowledgement, and a chunk of lent data costs no copy
 *     whatever its size, so larger chunks carry more data for the same work; chunks of 1 MiB
 *     moved large messages faster than chunks of 256 KiB, and sooner, at every size from 256 KiB
 *     to 4 MiB (docs/performance-notes.md#tcp-chunks-of-a-mib)
 * @param unexpectedBytes the most data of messages that arrived before their receive a rank keeps
 * @param unexpectedMessages the most such messages (and announcements of large ones) it keeps
 * @param idle how a waiting thread spins before it parks
 */
public record Limits(int eagerLimit, int chunk, int streamChunk, long unexpectedBytes, int unexpectedMessages,
                     Idle idle) {

    public static final int DEFAULT_EAGER_LIMIT = 64 * 1024;
    public static final int DEFAULT_CHUNK = 64 * 1024;
    public static final int DEFAULT_STREAM_CHUNK = 1024 * 1024;
    public static final long DEFAULT_UNEXPECTED_BYTES = 256L * 1024 * 1024;
    public static final int DEFAULT_UNEXPECTED_MESSAGES = 1 << 20;

    public static final Limits DEFAULTS = new Limits(DEFAULT_EAGER_LIMIT, DEFAULT_CHUNK, DEFAULT_STREAM_CHUNK,
        DEFAULT_UNEXPECTED_BYTES, DEFAULT_UNEXPECTED_MESSAGES, Idle.DEFAULT);

    public Limits {
        if (eagerLimit < 0 || chunk < 8 || streamChunk < 8 || unexpectedBytes < 0 || unexpectedMessages < 0) {
            throw new IllegalArgumentException("bad engine limits: eager " + eagerLimit + ", chunk " + chunk + " and "
                + streamChunk + ", unexpected " + unexpectedBytes + " bytes / " + unexpectedMessages + " messages");
        }
    }

    /**
     * @return these limits, a waiter receiving with {@code receiver} before each pause and handing
     *     receiving back with {@code handBack} ({@link Idle#receivingWith})
     */
    public Limits receivingWith(java.util.function.IntSupplier receiver, Runnable handBack) {
        return new Limits(eagerLimit, chunk, streamChunk, unexpectedBytes, unexpectedMessages,
            idle.receivingWith(receiver, handBack));
    }

    /** @return these limits, a waiter yielding from the first look while {@code crowded} says so */
    public Limits yieldingWhen(BooleanSupplier crowded) {
        return new Limits(eagerLimit, chunk, streamChunk, unexpectedBytes, unexpectedMessages,
            idle.yieldingWhen(crowded));
    }

    /** @return these limits with the chunks no larger than what one RSR of {@code maxMessageSize} holds */
    public Limits fitting(int maxMessageSize) {
        int room = maxMessageSize - io.polylink.mpi.internal.wire.Header.RTS_LENGTH;
        int c = Math.min(chunk, room & ~7);
        int s = Math.min(streamChunk, room & ~7);
        int e = Math.min(eagerLimit, room);
        return c == chunk && s == streamChunk && e == eagerLimit ? this
            : new Limits(e, c, s, unexpectedBytes, unexpectedMessages, idle);
    }

    /**
     * @param stack the method stack a message takes, as a descriptor names it ({@code shm},
     *     {@code lz4/tcp}), or {@code null} if not known
     * @return bytes of data per DATA message over {@code stack}
     */
    public int chunkOver(String stack) {
        return stack == null || overShm(stack) ? chunk : streamChunk;
    }

    /** @return whether {@code stack} ends in shm, alone or under transforms */
    static boolean overShm(String stack) {
        return stack != null && (stack.equals("shm") || stack.endsWith("/shm"));
    }
}
