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
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;

/**
 * One inbox segment mapped into this process: {@link InboxLayout} made into accessors. The owner
 * {@link #create creates} it; senders {@link #open open} it after checking its size and header, so
 * a short or foreign file is a clean error, and the ring's capacity and slot count are the ones
 * checked then, never read again from shared memory: no access goes past the mapped length.
 *
 * <p>The file stays open while it is mapped, so {@link #intact} can ask its descriptor whether
 * someone truncated it: an access to a page cut off a mapped file is a bus error, which the JVM
 * turns into an {@link InternalError} thrown at some later point of the thread that made it.
 *
 * <p>Its accessors cover the three parts of the layout: the header (owner, state, heartbeat, the
 * ring's head and tail, the consumer's "parked" flag), the producer slots ({@code slot*}) and the
 * record headers in the ring ({@code recordHeader}, {@code casRecordHeader}). Shared words are
 * read and written through VarHandles on the mapped buffer: acquire/release and compare-and-set
 * give the ordering across processes that the ring relies on.
 */
public final class Segment implements AutoCloseable {

    private static final VarHandle LONG = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());
    private static final VarHandle INT = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.nativeOrder());

    private final Path path;
    private final FileChannel file;
    /** The file's identity (device and inode) when it was made or opened. */
    private final Object fileKey;
    private final MappedByteBuffer map;
    /** The ring alone, so record offsets are ring indexes. */
    private final ByteBuffer ring;
    private final int capacity;
    private final int slots;

    /** @param capacity and {@code slots}: as checked against the file's size, not as read from the map */
    private Segment(Path path, FileChannel file, Object fileKey, MappedByteBuffer map, int capacity, int slots) {
        this.path = path;
        this.file = file;
        this.fileKey = fileKey;
        this.map = map;
        this.capacity = capacity;
        this.slots = slots;
        this.ring = map.slice(ringOffset(slots), capacity).order(ByteOrder.nativeOrder());
    }

    /**
     * Makes a new inbox in {@code directory}, fully allocated before it appears under its name:
     * pages are written (tmpfs hands them out now, so a full file system fails here and not as a
     * bus error later), then the complete file is renamed into place. The directory must be
     * private to the user who made the file.
     *
     * @throws IOException naming the file and the reason
     * @throws SegmentException if the directory may be written by others
     */
    static Segment create(SecureDirectory directory, String name, ContextId owner, int slots, int capacity,
                          int wakePort, long startMillis) throws IOException {
        long length = segmentLength(slots, capacity);
        Path path = directory.path().resolve(name);
        String temporary = SegmentDirectory.temporaryName(name);
        FileChannel channel;
        try {
            channel = directory.create(temporary);
        } catch (FileAlreadyExistsException e) {
            throw new IOException("shm segment " + directory.path().resolve(temporary) + " already exists", e);
        } catch (IOException e) {
            throw new IOException("cannot create shm segment " + path + ": " + SegmentException.why(e), e);
        }
        try {
            PosixFileAttributes made = directory.attributes(temporary);
            directory.requirePrivate(made.owner());
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
            map.putLong(OWNER_PID_OFFSET, ProcessHandle.current().pid());
            map.putLong(OWNER_START_OFFSET, startMillis);
            map.putLong(HEARTBEAT_MILLIS_OFFSET, System.currentTimeMillis());
            map.putInt(STATE_OFFSET, STATE_OPEN);
            LONG.setRelease(map, MAGIC_OFFSET, MAGIC);
            directory.rename(temporary, name);
            return new Segment(path, channel, made.fileKey(), map, capacity, slots);
        } catch (IOException | RuntimeException e) {
            closeQuietly(channel);
            try {
                directory.delete(temporary);
            } catch (IOException gone) {
                // renamed already, or never there
            }
            if (e instanceof IOException io) {
                throw new IOException("cannot create shm segment " + path + " of " + length + " bytes: "
                    + SegmentException.why(io), e);
            }
            throw e;
        }
    }

    /**
     * Maps an existing inbox after checking it is one, of the size its header says; the caller
     * has checked whose file it is.
     *
     * @param fileKey the file's identity as the caller found it
     * @throws IOException if the file cannot be opened or read
     * @throws SegmentException naming the file and what is wrong with it
     */
    static Segment open(SecureDirectory directory, String name, Object fileKey) throws IOException {
        Path path = directory.path().resolve(name);
        FileChannel channel = directory.open(name);
        try {
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
            return new Segment(path, channel, fileKey, map, header.getInt(RING_CAPACITY_OFFSET),
                header.getInt(SLOT_COUNT_OFFSET));
        } catch (IOException | RuntimeException e) {
            closeQuietly(channel);
            throw e;
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

    /** @return the length this process mapped */
    public long length() {
        return segmentLength(slots, capacity);
    }

    /**
     * Asks the file's descriptor, not the mapping, how long the file is now. A system call; for
     * checks now and then, never per record. An interrupt closes a file channel that is in use, so
     * the calling thread's interrupt is held back meanwhile: a check must not close the file it
     * checks.
     *
     * @return the file's size, or -1 if it cannot be told (the segment is closed)
     */
    public long fileSize() {
        boolean interrupted = Thread.interrupted();
        try {
            return file.size();
        } catch (IOException e) {
            return -1;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * @return whether the file still covers every mapped page; {@code true} where its size cannot
     *     be told, since only a file known to be short proves a fault
     */
    public boolean intact() {
        long size = fileSize();
        return size < 0 || size >= length();
    }

    /** @return the file's identity (device and inode) when it was made or opened */
    public Object fileKey() {
        return fileKey;
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

    /** Marks an active slot refused, keeping its producer's process id: its producer then ends the connection. */
    public void refuseSlot(int slot) {
        long state = slotState(slot);
        if (slotPhase(state) == SLOT_ACTIVE) {
            casSlotState(slot, state, InboxLayout.slotState(slotPid(state), SLOT_REFUSED));
        }
    }

    public long recordHeader(int index) {
        return (long) LONG.getAcquire(ring, index);
    }

    public boolean casRecordHeader(int index, long expected, long value) {
        return LONG.compareAndSet(ring, index, expected, value);
    }

    /** Closes the file; the mapping stays until it is collected, so a thread still reading it faults on nothing. */
    @Override
    public void close() {
        closeQuietly(file);
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing held that closing again would free
        }
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
