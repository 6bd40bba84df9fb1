package io.polylink.mpi.internal.datatype;

import java.nio.ByteBuffer;

/**
 * A position in {@code count} copies of a typemap over a memory: packs or unpacks whole
 * primitives from there and stops where it is told, so a message can move in chunks and each chunk
 * ends on a primitive. Not thread-safe: one operation owns it.
 */
public final class Cursor {

    private static final int MAX_RUN = 1 << 20;

    private final Memory memory;
    private final Typemap map;
    private final long copies;
    private final long total;
    private final boolean dense;
    private long copy;
    private int block;
    private long element;
    private long done;
    private long primitives;

    /**
     * @param memory checked against {@code map} and {@code count} by {@link Memories#check}
     */
    public Cursor(Memory memory, Typemap map, long count) {
        this.memory = memory;
        this.map = map;
        this.total = map.size() * count;
        // Copies of a dense type follow each other: one run over all of them.
        this.dense = map.isDense();
        this.copies = dense ? (count == 0 ? 0 : 1) : count;
    }

    /**
     * Packs all {@code count} copies, as a new cursor's {@link #pack} with room for them all would;
     * a dense type's in one run, with no cursor to make. For a message that goes whole.
     */
    public static void packAll(Memory memory, Typemap map, long count, WireWriter out) {
        long total = map.size() * count;
        if (map.isDense() && total / map.kind(0).size() <= MAX_RUN) {
            if (total > 0) {
                memory.write(out, map.kind(0), map.displacement(0), (int) (total / map.kind(0).size()));
            }
            return;
        }
        new Cursor(memory, map, count).pack(out, total);
    }

    /**
     * Unpacks whole primitives of {@code count} copies from at most {@code available} bytes of
     * {@code in}, as a new cursor's {@link #unpack} would; a dense type's in one run, with no cursor
     * to make. For a message that came whole.
     *
     * @return the bytes read
     */
    public static long unpackAll(Memory memory, Typemap map, long count, WireReader in, long available) {
        if (map.isDense()) {
            int size = map.kind(0).size();
            long n = Math.min(available, map.size() * count) / size;
            if (n <= MAX_RUN) {
                if (n > 0) {
                    memory.read(in, map.kind(0), map.displacement(0), (int) n);
                }
                return n * size;
            }
        }
        return new Cursor(memory, map, count).unpack(in, available);
    }

    /** @return the bytes all copies take on the wire */
    public long total() {
        return total;
    }

    /** @return the wire bytes packed or unpacked so far */
    public long done() {
        return done;
    }

    /** @return the primitives packed or unpacked so far */
    public long primitives() {
        return primitives;
    }

    /** @return whether every copy was packed or unpacked */
    public boolean finished() {
        return done == total;
    }

    private long blockCount() {
        return dense ? total / map.kind(0).size() : map.count(block);
    }

    /**
     * Packs whole primitives while they fit in {@code budget} bytes.
     *
     * @return the bytes written
     */
    public long pack(WireWriter out, long budget) {
        return move(out, null, budget);
    }

    /**
     * Takes the next whole primitives within {@code budget} bytes as they lie in memory, where they
     * already are the wire's bytes (a dense type of one kind the memory keeps in the wire's
     * order), for a message to carry without packing them; or nothing.
     *
     * @return the bytes, or {@code null}, with the cursor where it was: pack them instead
     */
    public ByteBuffer lend(long budget) {
        if (!dense || copy == copies) {
            return null;
        }
        Kind kind = map.kind(0);
        int size = kind.size();
        long n = Math.min(blockCount() - element, Math.min(budget, Integer.MAX_VALUE) / size);
        if (n == 0) {
            return null;
        }
        ByteBuffer bytes = memory.wireBytes(kind, map.displacement(0) + element * size, (int) (n * size));
        if (bytes == null) {
            return null;
        }
        done += n * size;
        primitives += n;
        element += n;
        if (element == blockCount()) {
            element = 0;
            copy++;
        }
        return bytes;
    }

    /**
     * Unpacks whole primitives from at most {@code available} bytes of {@code in}.
     *
     * @return the bytes read: less than {@code available} if the copies end first or the last
     *     bytes are part of a primitive
     */
    public long unpack(WireReader in, long available) {
        return move(null, in, available);
    }

    private long move(WireWriter out, WireReader in, long budget) {
        long moved = 0;
        int blocks = map.blocks();
        if (blocks == 0) {
            return 0;
        }
        while (copy < copies) {
            while (block < blocks) {
                Kind kind = map.kind(block);
                int size = kind.size();
                long left = blockCount() - element;
                long fits = (budget - moved) / size;
                if (fits == 0) {
                    return moved;
                }
                int n = (int) Math.min(Math.min(left, fits), MAX_RUN);
                long at = copy * map.extent() + map.displacement(block) + element * size;
                if (out != null) {
                    memory.write(out, kind, at, n);
                } else {
                    memory.read(in, kind, at, n);
                }
                long bytes = (long) n * size;
                moved += bytes;
                done += bytes;
                primitives += n;
                element += n;
                if (element == blockCount()) {
                    block++;
                    element = 0;
                }
            }
            block = 0;
            copy++;
        }
        return moved;
    }
}
