package io.polylink.method.shm.internal.segment;

import static io.polylink.method.shm.internal.segment.InboxLayout.*;

import io.polylink.ContextId;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * One inbox segment mapped into this process: {@link InboxLayout} made into accessors. The owner
 * {@link #create creates} it; senders {@link #open open} it after checking its size and header, so
 * a short or foreign file is a clean error and no access ever goes past the mapped length.
 *
 * <p>Its accessors cover the three parts of the layout: the header (owner, state, heartbeat, the
 * ring's head and tail, the consumer's "parked" flag), the producer slots ({@code slot*}) and the
 * record headers in the ring ({@code recordHeader}, {@code casRecordHeader}). Shared words are
 * read and written through VarHandles on the mapped buffer: acquire/release and compare-and-set
 * give the ordering across processes that the ring relies on.
 */
public final class Segment {

    private static final VarHandle LONG = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());
    private static final VarHandle INT = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.nativeOrder());

    private final Path path;
    private final MappedByteBuffer map;
    /** The ring alone, so record offsets are ring indexes. */
    private final ByteBuffer ring;
    private final int capacity;
    private final int slots;

    private Segment(Path path, MappedByteBuffer map) {
        this.path = path;
        this.map = map;
        this.capacity = map.getInt(RING_CAPACITY_OFFSET);
        this.slots = map.getInt(SLOT_COUNT_OFFSET);
        this.ring = map.slice(ringOffset(slots), capacity).order(ByteOrder.nativeOrder());
    }

    /**
     * Makes a new inbox, fully allocated before it appears under its name: pages are written
     * (tmpfs hands them out now, so a full file system fails here and not as a bus error later),
     * then the complete file is renamed into place.
     *
     * @throws IOException naming the file and the reason
     */
    public static Segment create(Path path, ContextId owner, int slots, int capacity, int wakePort, long startMillis)
            throws IOException {
        long length = segmentLength(slots, capacity);
        long pid = ProcessHandle.current().pid();
        Path temporary = SegmentDirectory.temporary(path);
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE_NEW,
                StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            try {
                Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException ignored) {
                // not a POSIX file system: its own defaults apply
            }
            ByteBuffer zeros = ByteBuffer.allocate(1 << 20);
            for (long at = 0; at < length; ) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), length - at));
                at += channel.write(zeros, at);
            }
            MappedByteBuffer map = channel.map(FileChannel.MapMode.READ_WRITE, 0, length);
            map.order(ByteOrder.nativeOrder());
            map.putInt(VERSION_OFFSET, VERSION);
            map.putInt(RING_CAPACITY_OFFSET, capacity);
            map.putInt(SLOT_COUNT_OFFSET, slots);
            map.putInt(SLOT_LENGTH_OFFSET, SLOT_LENGTH);
            map.putInt(WAKE_PORT_OFFSET, wakePort);
            map.putLong(OWNER_HIGH_OFFSET, owner.high());
            map.putLong(OWNER_LOW_OFFSET, owner.low());
            map.putLong(OWNER_PID_OFFSET, pid);
            map.putLong(OWNER_START_OFFSET, startMillis);
            map.putLong(HEARTBEAT_MILLIS_OFFSET, System.currentTimeMillis());
            map.putInt(STATE_OFFSET, STATE_OPEN);
            LONG.setRelease(map, MAGIC_OFFSET, MAGIC);
            Files.move(temporary, path, StandardCopyOption.ATOMIC_MOVE);
            return new Segment(path, map);
        } catch (IOException e) {
            Files.deleteIfExists(temporary);
            if (e instanceof FileAlreadyExistsException) {
                throw new IOException("shm segment " + temporary + " already exists", e);
            }
            throw new IOException("cannot create shm segment " + path + " of " + length + " bytes: " + e, e);
        }
    }

    /**
     * Maps an existing inbox after checking it is one, of the size its header says.
     *
     * @throws SegmentException naming the file and what is wrong with it
     */
    public static Segment open(Path path) {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = channel.size();
            if (size < HEADER_LENGTH) {
                throw new SegmentException("shm segment " + path + " is truncated: " + size
                    + " bytes, shorter than the " + HEADER_LENGTH + "-byte header");
            }
            ByteBuffer header = ByteBuffer.allocate(HEADER_LENGTH).order(ByteOrder.nativeOrder());
            while (header.hasRemaining() && channel.read(header, header.position()) > 0) {
                // read the whole header
            }
            long expected = check(path, header);
            if (size != expected) {
                throw new SegmentException("shm segment " + path + " is truncated: " + size
                    + " bytes, its header says " + expected);
            }
            MappedByteBuffer map = channel.map(FileChannel.MapMode.READ_WRITE, 0, expected);
            map.order(ByteOrder.nativeOrder());
            return new Segment(path, map);
        } catch (NoSuchFileException e) {
            throw new SegmentException("no shm segment " + path + " (the context stopped, or this process "
                + "sees another file system there)");
        } catch (AccessDeniedException e) {
            throw new SegmentException("shm segment " + path + " is not readable and writable here");
        } catch (IOException e) {
            throw new SegmentException("cannot map shm segment " + path + ": " + e.getMessage());
        }
    }

    /** @return the segment's length as its header gives it */
    private static long check(Path path, ByteBuffer header) {
        if (header.getLong(MAGIC_OFFSET) != MAGIC) {
            throw new SegmentException("shm segment " + path + " is not a Polylink inbox (bad magic)");
        }
        int version = header.getInt(VERSION_OFFSET);
        if (version != VERSION) {
            throw new SegmentException("shm segment " + path + " has layout version " + version + ", this "
                + "context reads " + VERSION + "; upgrade the older side");
        }
        int capacity = header.getInt(RING_CAPACITY_OFFSET);
        int slots = header.getInt(SLOT_COUNT_OFFSET);
        if (capacity < MIN_RING || capacity > MAX_RING || Integer.bitCount(capacity) != 1
            || slots < 1 || slots > MAX_SLOTS || header.getInt(SLOT_LENGTH_OFFSET) != SLOT_LENGTH) {
            throw new SegmentException("shm segment " + path + " has a corrupt header (ring " + capacity
                + " bytes, " + slots + " slots of " + header.getInt(SLOT_LENGTH_OFFSET) + ")");
        }
        return segmentLength(slots, capacity);
    }

    public Path path() {
        return path;
    }

    public ByteBuffer ring() {
        return ring;
    }

    public int capacity() {
        return capacity;
    }

    public int slots() {
        return slots;
    }

    public int state() {
        return (int) INT.getVolatile(map, STATE_OFFSET);
    }

    public void state(int state) {
        INT.setVolatile(map, STATE_OFFSET, state);
    }

    public ContextId owner() {
        return new ContextId(map.getLong(OWNER_HIGH_OFFSET), map.getLong(OWNER_LOW_OFFSET));
    }

    public long ownerPid() {
        return map.getLong(OWNER_PID_OFFSET);
    }

    public long ownerStart() {
        return map.getLong(OWNER_START_OFFSET);
    }

    public int wakePort() {
        return map.getInt(WAKE_PORT_OFFSET);
    }

    public long heartbeatCount() {
        return (long) LONG.getVolatile(map, HEARTBEAT_COUNT_OFFSET);
    }

    public void beat(long millis) {
        LONG.setRelease(map, HEARTBEAT_MILLIS_OFFSET, millis);
        LONG.getAndAddRelease(map, HEARTBEAT_COUNT_OFFSET, 1L);
    }

    public long tail() {
        return (long) LONG.getVolatile(map, TAIL_OFFSET);
    }

    public boolean casTail(long expected, long value) {
        return LONG.compareAndSet(map, TAIL_OFFSET, expected, value);
    }

    public long head() {
        return (long) LONG.getVolatile(map, HEAD_OFFSET);
    }

    public void head(long position) {
        LONG.setRelease(map, HEAD_OFFSET, position);
    }

    public void parked(boolean parked) {
        INT.setVolatile(map, PARKED_OFFSET, parked ? 1 : 0);
    }

    /** @return whether the consumer was parked; if so it is marked awake, so one producer wakes it */
    public boolean unpark() {
        return (int) INT.getVolatile(map, PARKED_OFFSET) == 1 && INT.compareAndSet(map, PARKED_OFFSET, 1, 0);
    }

    public long slotState(int slot) {
        return (long) LONG.getVolatile(map, slotOffset(slot) + SLOT_STATE_OFFSET);
    }

    public boolean casSlotState(int slot, long expected, long value) {
        return LONG.compareAndSet(map, slotOffset(slot) + SLOT_STATE_OFFSET, expected, value);
    }

    /**
     * Claims a free slot and describes the producer in it.
     *
     * @return the slot index, or -1 if every slot is taken
     */
    public int claimSlot(long session, ContextId producer, byte[] address) {
        long pid = ProcessHandle.current().pid();
        long claimed = InboxLayout.slotState(pid, SLOT_CLAIMED);
        for (int slot = 0; slot < slots; slot++) {
            if (slotState(slot) == SLOT_FREE && casSlotState(slot, SLOT_FREE, claimed)) {
                int at = slotOffset(slot);
                map.putLong(at + SLOT_SESSION_OFFSET, session);
                map.putLong(at + SLOT_PEER_HIGH_OFFSET, producer.high());
                map.putLong(at + SLOT_PEER_LOW_OFFSET, producer.low());
                map.putInt(at + SLOT_ADDRESS_LENGTH_OFFSET, address.length);
                map.put(at + SLOT_ADDRESS_OFFSET, address);
                LONG.setRelease(map, at + SLOT_STATE_OFFSET, InboxLayout.slotState(pid, SLOT_ACTIVE));
                return slot;
            }
        }
        return -1;
    }

    public long slotSession(int slot) {
        return map.getLong(slotOffset(slot) + SLOT_SESSION_OFFSET);
    }

    public ContextId slotPeer(int slot) {
        int at = slotOffset(slot);
        return new ContextId(map.getLong(at + SLOT_PEER_HIGH_OFFSET), map.getLong(at + SLOT_PEER_LOW_OFFSET));
    }

    /** @return the producer's own shm address, or {@code null} if the slot's length is out of bounds */
    public byte[] slotAddress(int slot) {
        int at = slotOffset(slot);
        int length = map.getInt(at + SLOT_ADDRESS_LENGTH_OFFSET);
        if (length < 0 || length > MAX_ADDRESS) {
            return null;
        }
        byte[] address = new byte[length];
        map.get(at + SLOT_ADDRESS_OFFSET, address);
        return address;
    }

    public void freeSlot(int slot) {
        LONG.setRelease(map, slotOffset(slot) + SLOT_STATE_OFFSET, SLOT_FREE);
    }

    public long recordHeader(int index) {
        return (long) LONG.getAcquire(ring, index);
    }

    public boolean casRecordHeader(int index, long expected, long value) {
        return LONG.compareAndSet(ring, index, expected, value);
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
