package io.polylink.mpi.internal.datatype;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import java.util.Arrays;

/**
 * A datatype's layout: blocks of primitives at byte displacements from the start of one copy,
 * and the copy's bounds. Adjacent blocks of one kind merge, so a contiguous type is one block
 * however it was built. Immutable.
 *
 * <p>Bounds follow MPI: {@code lb} and {@code ub} span every copy a constructor placed (a resized
 * type's are what it was given), the true bounds span the bytes data occupies, and a struct's
 * extent is rounded up to the alignment of its largest primitive, as a C compiler pads a struct.
 */
public final class Typemap {

    /** A type of more blocks than this is refused: its description alone would fill the heap. */
    static final int MAX_BLOCKS = 1 << 22;

    private final long[] displacements;
    private final byte[] kinds;
    private final long[] counts;
    private final long lb;
    private final long ub;
    private final long trueLb;
    private final long trueUb;
    private final long size;
    private final long elements;
    private final int alignment;
    private final int kindMask;
    private final long displacementGcd;

    private Typemap(Builder b, long lb, long ub, long trueLb, long trueUb, int alignment) {
        this.displacements = Arrays.copyOf(b.displacements, b.blocks);
        this.kinds = Arrays.copyOf(b.kinds, b.blocks);
        this.counts = Arrays.copyOf(b.counts, b.blocks);
        this.lb = lb;
        this.ub = ub;
        this.trueLb = trueLb;
        this.trueUb = trueUb;
        this.alignment = alignment;
        long bytes = 0;
        long primitives = 0;
        int mask = 0;
        long gcd = 0;
        for (int i = 0; i < counts.length; i++) {
            Kind k = Kind.of(kinds[i]);
            bytes += counts[i] * k.size();
            primitives += counts[i];
            mask |= 1 << kinds[i];
            gcd = gcd(gcd, displacements[i]);
        }
        this.size = bytes;
        this.elements = primitives;
        this.kindMask = mask;
        this.displacementGcd = gcd;
    }

    /** @return one primitive of {@code kind} */
    public static Typemap basic(Kind kind) {
        return Basic.OF[kind.ordinal()];
    }

    /** One typemap per kind, made once: a typemap never changes, and collectives ask for them on every call. */
    private static final class Basic {

        static final Typemap[] OF = new Typemap[Kind.values().length];

        static {
            for (Kind kind : Kind.values()) {
                Builder b = new Builder();
                b.add(0, kind.ordinal(), 1);
                OF[kind.ordinal()] = new Typemap(b, 0, kind.size(), 0, kind.size(), kind.size());
            }
        }
    }

    /** @return the C struct {@code { first a; second b; }}, padded as a compiler pads it */
    public static Typemap pair(Kind first, Kind second) {
        long offset = roundUp(first.size(), second.size());
        return struct(new int[] {1, 1}, new long[] {0, offset}, new Typemap[] {basic(first), basic(second)});
    }

    /** @return {@code count} copies of {@code old}, one after the other */
    public static Typemap contiguous(long count, Typemap old) {
        return replicate(old, new long[] {0}, new long[] {count});
    }

    /**
     * @return {@code count} blocks of {@code blockLength} copies of {@code old}, the blocks
     *     {@code stride} bytes apart
     */
    public static Typemap hvector(int count, int blockLength, long stride, Typemap old) {
        long[] offsets = new long[count];
        long[] lengths = new long[count];
        for (int i = 0; i < count; i++) {
            offsets[i] = i * stride;
            lengths[i] = blockLength;
        }
        return replicate(old, offsets, lengths);
    }

    /** @return blocks of {@code lengths[i]} copies of {@code old} at {@code displacements[i]} bytes */
    public static Typemap hindexed(int[] lengths, long[] displacements, Typemap old) {
        long[] copies = new long[lengths.length];
        for (int i = 0; i < lengths.length; i++) {
            copies[i] = lengths[i];
        }
        return replicate(old, displacements, copies);
    }

    /**
     * @return blocks of {@code lengths[i]} copies of {@code types[i]} at {@code displacements[i]}
     *     bytes, the extent padded to the largest alignment among them
     */
    public static Typemap struct(int[] lengths, long[] displacements, Typemap[] types) {
        Builder b = new Builder();
        Bounds bounds = new Bounds();
        int alignment = 1;
        for (int i = 0; i < lengths.length; i++) {
            if (lengths[i] == 0) {
                continue;
            }
            place(b, bounds, types[i], displacements[i], lengths[i]);
            alignment = Math.max(alignment, types[i].alignment);
        }
        if (!bounds.any) {
            return new Typemap(b, 0, 0, 0, 0, alignment);
        }
        long ub = bounds.lb + roundUp(bounds.ub - bounds.lb, alignment);
        return new Typemap(b, bounds.lb, ub, bounds.trueLb(), bounds.trueUb(), alignment);
    }

    /** @return {@code old} with the given lower bound and extent, in bytes */
    public static Typemap resized(Typemap old, long lb, long extent) {
        Builder b = new Builder();
        b.addCopy(old, 0);
        return new Typemap(b, lb, lb + extent, old.trueLb, old.trueUb, old.alignment);
    }

    private static Typemap replicate(Typemap old, long[] offsets, long[] lengths) {
        Builder b = new Builder();
        Bounds bounds = new Bounds();
        for (int i = 0; i < offsets.length; i++) {
            if (lengths[i] != 0) {
                place(b, bounds, old, offsets[i], lengths[i]);
            }
        }
        if (!bounds.any) {
            return new Typemap(b, 0, 0, 0, 0, old.alignment);
        }
        return new Typemap(b, bounds.lb, bounds.ub, bounds.trueLb(), bounds.trueUb(), old.alignment);
    }

    /** Adds {@code copies} copies of {@code old}, one extent apart, at {@code offset}. */
    private static void place(Builder b, Bounds bounds, Typemap old, long offset, long copies) {
        long ext = old.extent();
        long last = (copies - 1) * ext;
        bounds.cover(offset + Math.min(0, last) + old.lb, offset + Math.max(0, last) + old.ub);
        if (old.size > 0) {
            bounds.coverData(offset + Math.min(0, last) + old.trueLb, offset + Math.max(0, last) + old.trueUb);
        }
        if (old.isDense() && ext > 0) {
            b.add(offset + old.displacements[0], old.kinds[0], copies * old.counts[0]);
            return;
        }
        for (long j = 0; j < copies; j++) {
            b.addCopy(old, offset + j * ext);
        }
    }

    /** @return the number of blocks */
    int blocks() {
        return counts.length;
    }

    long displacement(int block) {
        return displacements[block];
    }

    Kind kind(int block) {
        return Kind.of(kinds[block]);
    }

    long count(int block) {
        return counts[block];
    }

    /** @return bytes of data in one copy: what it takes on the wire */
    public long size() {
        return size;
    }

    /** @return primitives in one copy */
    public long elements() {
        return elements;
    }

    public long lb() {
        return lb;
    }

    public long ub() {
        return ub;
    }

    /** @return {@code ub - lb}: how far apart consecutive copies are */
    public long extent() {
        return ub - lb;
    }

    public long trueLb() {
        return trueLb;
    }

    public long trueExtent() {
        return trueUb - trueLb;
    }

    long trueUb() {
        return trueUb;
    }

    /** @return whether the data is one block filling the extent: copies follow each other with no gap */
    public boolean isDense() {
        return counts.length == 1 && displacements[0] == lb && size == extent();
    }

    /** @return whether some block holds primitives of {@code kind} */
    public boolean uses(Kind kind) {
        return (kindMask & 1 << kind.ordinal()) != 0;
    }

    /** @return the kinds the map uses, bit {@link Kind#ordinal()} set for each */
    int kinds() {
        return kindMask;
    }

    /** @return whether every block starts at a multiple of {@code bytes} */
    boolean displacementsAlignedTo(int bytes) {
        return displacementGcd % bytes == 0;
    }

    /** @return the primitives in the first {@code bytes} wire bytes of consecutive copies */
    public long elementsIn(long bytes) {
        return walk(bytes, true);
    }

    /** @return the bytes of the whole primitives within the first {@code bytes} wire bytes of consecutive copies */
    public long wholeBytesWithin(long bytes) {
        return walk(bytes, false);
    }

    /** @return the wire bytes of the first {@code n} primitives of one copy, {@code n} at most {@link #elements()} */
    public long bytesOfElements(long n) {
        long bytes = 0;
        for (int i = 0; i < counts.length && n > 0; i++) {
            long take = Math.min(n, counts[i]);
            bytes += take * Kind.of(kinds[i]).size();
            n -= take;
        }
        return bytes;
    }

    private long walk(long bytes, boolean elementsNotBytes) {
        if (size == 0) {
            return 0;
        }
        long whole = bytes / size;
        long rest = bytes % size;
        long n = whole * (elementsNotBytes ? elements : size);
        for (int i = 0; i < counts.length && rest > 0; i++) {
            int s = Kind.of(kinds[i]).size();
            long fit = Math.min(counts[i], rest / s);
            n += elementsNotBytes ? fit : fit * s;
            rest = fit == counts[i] ? rest - fit * s : 0;
        }
        return n;
    }

    @Override
    public String toString() {
        return counts.length + " block" + (counts.length == 1 ? "" : "s") + ", " + size + " bytes of data, extent "
            + extent();
    }

    private static long roundUp(long value, long unit) {
        long r = Math.floorMod(value, unit);
        return r == 0 ? value : value + unit - r;
    }

    private static long gcd(long a, long b) {
        a = Math.abs(a);
        b = Math.abs(b);
        while (b != 0) {
            long t = a % b;
            a = b;
            b = t;
        }
        return a;
    }

    /** The bounds of what a constructor placed so far. */
    private static final class Bounds {
        boolean any;
        long lb = Long.MAX_VALUE;
        long ub = Long.MIN_VALUE;
        boolean data;
        long trueLb = Long.MAX_VALUE;
        long trueUb = Long.MIN_VALUE;

        void cover(long low, long high) {
            any = true;
            lb = Math.min(lb, low);
            ub = Math.max(ub, high);
        }

        void coverData(long low, long high) {
            data = true;
            trueLb = Math.min(trueLb, low);
            trueUb = Math.max(trueUb, high);
        }

        long trueLb() {
            return data ? trueLb : 0;
        }

        long trueUb() {
            return data ? trueUb : 0;
        }
    }

    /** Collects blocks, merging each into the one before when it continues it. */
    private static final class Builder {
        long[] displacements = new long[4];
        byte[] kinds = new byte[4];
        long[] counts = new long[4];
        int blocks;

        void add(long displacement, int kind, long count) {
            if (count == 0) {
                return;
            }
            if (blocks > 0) {
                int last = blocks - 1;
                if (kinds[last] == kind
                        && displacements[last] + counts[last] * Kind.of(kind).size() == displacement) {
                    counts[last] += count;
                    return;
                }
            }
            if (blocks == displacements.length) {
                if (blocks == MAX_BLOCKS) {
                    throw new MpiError(ErrorClass.ERR_TYPE, "a datatype of more than " + MAX_BLOCKS
                        + " separate blocks of data; describe the data with fewer, larger blocks");
                }
                int grown = Math.min(MAX_BLOCKS, blocks * 2);
                displacements = Arrays.copyOf(displacements, grown);
                kinds = Arrays.copyOf(kinds, grown);
                counts = Arrays.copyOf(counts, grown);
            }
            displacements[blocks] = displacement;
            kinds[blocks] = (byte) kind;
            counts[blocks] = count;
            blocks++;
        }

        void addCopy(Typemap t, long offset) {
            for (int i = 0; i < t.counts.length; i++) {
                add(offset + t.displacements[i], t.kinds[i], t.counts[i]);
            }
        }
    }
}
