package io.polylink.bench.internal.pingpong;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The raw-mailbox file: one slot per direction in one memory-mapped file, each holding one
 * message at a time. The writer copies the message into the slot and publishes it by raising the
 * slot's sequence with a release store; the reader spins on the sequence with acquire loads,
 * copies the message out (or straight into the other slot) and raises its own {@code consumed}
 * word, which the writer waits for before it writes the slot again. The least two processes can
 * do to pass a message and its answer through shared memory: the floor below {@code raw-shm}'s
 * rings.
 *
 * <pre>
 *   slot:  0                 64                128      132      136
 *          | sequence (w)  ..| consumed (r)  ..| op     | length | payload (up to MAX_SIZE) ...
 * </pre>
 *
 * Sequence and consumed sit on separate cache lines; op, length and a small payload share one.
 * Every wait busy-spins and is bounded by {@link Deadline#REPLY_NANOS}.
 */
final class RawMailbox {

    private static final int SEQUENCE = 0;
    private static final int CONSUMED = 64;
    private static final int OP = 128;
    private static final int LENGTH = 132;
    private static final int PAYLOAD = 136;
    private static final int SLOT_BYTES = PAYLOAD + PingPongOptions.MAX_SIZE;
    private static final int FILE_BYTES = 2 * SLOT_BYTES;
    private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

    /** One direction's slot, as its writer or its reader sees it. */
    static final class Slot {
        private final ByteBuffer region;
        /** The writer's last sequence, and the last consumed word it read; the reader's last sequence read. */
        private long sequence;
        private long consumedSeen;

        private Slot(ByteBuffer region) {
            this.region = region;
        }

        /** Writer: waits until the reader took the last message. */
        private void awaitConsumed() {
            long deadline = 0;
            int spins = 0;
            while (consumedSeen != sequence) {
                consumedSeen = (long) LONGS.getAcquire(region, CONSUMED);
                if (consumedSeen == sequence) {
                    return;
                }
                Thread.onSpinWait();
                if ((++spins & 0xFFF) == 0) {
                    deadline = deadline == 0 ? Deadline.forReply() : deadline;
                    Deadline.check(deadline, "the raw-mailbox reader to take a message");
                }
            }
        }

        /** Writer: puts {@code payload} (position to limit) in the slot as message {@code op} and publishes it. */
        void write(int op, ByteBuffer payload) {
            awaitConsumed();
            int length = payload.remaining();
            region.putInt(OP, op).putInt(LENGTH, length).put(PAYLOAD, payload, payload.position(), length);
            LONGS.setRelease(region, SEQUENCE, ++sequence);
        }

        /** Reader: whether a message waits, without waiting. */
        boolean ready() {
            return (long) LONGS.getAcquire(region, SEQUENCE) != sequence;
        }

        /** Reader: waits for the next message. @return its op */
        int await() {
            long deadline = 0;
            int spins = 0;
            while (!ready()) {
                Thread.onSpinWait();
                if ((++spins & 0xFFF) == 0) {
                    deadline = deadline == 0 ? Deadline.forReply() : deadline;
                    Deadline.check(deadline, "a message in the raw mailbox");
                }
            }
            sequence++;
            return region.getInt(OP);
        }

        /** Reader: the waiting message's payload length, checked against the slot. */
        int length() {
            int length = region.getInt(LENGTH);
            if (length < 0 || length > PingPongOptions.MAX_SIZE) {
                throw new IllegalStateException("raw-mailbox message of " + length + " bytes");
            }
            return length;
        }

        /** Reader: copies the waiting message's payload into {@code dst} (position on, moved) and lets the writer go on. */
        void readInto(ByteBuffer dst) {
            int length = length();
            dst.put(dst.position(), region, PAYLOAD, length).position(dst.position() + length);
            consumed();
        }

        /** Reader: answers the waiting message through {@code out}, copying its payload once, and lets the writer go on. */
        void answer(Slot out) {
            int length = length();
            out.awaitConsumed();
            out.region.putInt(OP, region.getInt(OP)).putInt(LENGTH, length).put(PAYLOAD, region, PAYLOAD, length);
            consumed();
            LONGS.setRelease(out.region, SEQUENCE, ++out.sequence);
        }

        /** Reader: lets the writer go on without looking at the payload. */
        void consumed() {
            LONGS.setRelease(region, CONSUMED, sequence);
        }
    }

    private final Slot toServer;
    private final Slot toClient;

    private RawMailbox(MappedByteBuffer mapped) {
        this.toServer = new Slot(mapped.slice(0, SLOT_BYTES));
        this.toClient = new Slot(mapped.slice(SLOT_BYTES, SLOT_BYTES));
    }

    /** Creates, zeroes and maps a new mailbox file at {@code path}; fails if the file exists. */
    static RawMailbox create(Path path) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, FILE_BYTES);
            for (int i = 0; i < FILE_BYTES; i += Long.BYTES) {
                mapped.putLong(i, 0); // every page touched before use: no page fault in a measured round trip
            }
            return new RawMailbox(mapped);
        }
    }

    /** Maps the mailbox the server created at {@code path}. */
    static RawMailbox open(Path path) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            if (channel.size() != FILE_BYTES) {
                throw new IOException(path + " has " + channel.size() + " bytes, not the " + FILE_BYTES
                    + " of a raw mailbox");
            }
            return new RawMailbox(channel.map(FileChannel.MapMode.READ_WRITE, 0, FILE_BYTES));
        }
    }

    Slot toServer() {
        return toServer;
    }

    Slot toClient() {
        return toClient;
    }
}
