package io.polylink.itests.process;

import static io.polylink.method.shm.internal.segment.InboxLayout.*;

import io.polylink.ContextId;
import io.polylink.method.shm.internal.segment.SegmentDirectory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

/**
 * An inbox file written as a local attacker would, byte by byte: a valid header claiming {@code
 * owner}'s context and this live process, an open state and an empty ring, in a folder of the
 * attacker's choosing.
 */
final class ForgedInbox {

    private static final int SLOTS = 4;

    private ForgedInbox() {}

    /** @return the file, named as {@code owner}'s inbox in {@code folder} */
    static Path write(Path folder, ContextId owner) throws IOException {
        ByteBuffer header = ByteBuffer.allocate(HEADER_LENGTH).order(ByteOrder.nativeOrder());
        header.putLong(MAGIC_OFFSET, MAGIC)
            .putInt(VERSION_OFFSET, VERSION)
            .putInt(STATE_OFFSET, STATE_OPEN)
            .putInt(RING_CAPACITY_OFFSET, MIN_RING)
            .putInt(SLOT_COUNT_OFFSET, SLOTS)
            .putInt(SLOT_LENGTH_OFFSET, SLOT_LENGTH)
            .putLong(OWNER_HIGH_OFFSET, owner.high())
            .putLong(OWNER_LOW_OFFSET, owner.low())
            .putLong(OWNER_PID_OFFSET, ProcessHandle.current().pid())
            .putLong(OWNER_START_OFFSET, ProcessHandle.current().info().startInstant().map(Instant::toEpochMilli)
                .orElse(0L))
            .putLong(HEARTBEAT_MILLIS_OFFSET, System.currentTimeMillis());
        byte[] image = new byte[(int) segmentLength(SLOTS, MIN_RING)];
        System.arraycopy(header.array(), 0, image, 0, HEADER_LENGTH);
        Files.createDirectories(folder);
        return Files.write(folder.resolve(SegmentDirectory.inboxName(owner)), image);
    }
}
