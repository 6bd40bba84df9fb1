package io.polylink.mpi.internal.datatype;

import java.nio.ByteBuffer;

/** A memory seen from some bytes into another: what a slice of a direct buffer is. */
final class Shifted implements Memory {

    private final Memory inner;
    private final long offset;

    Shifted(Memory inner, long offset) {
        this.inner = inner;
        this.offset = offset;
    }

    @Override
    public long capacity() {
        return inner.capacity() - offset;
    }

    @Override
    public boolean holds(Kind kind) {
        return inner.holds(kind);
    }

    @Override
    public int granularity() {
        return inner.granularity();
    }

    @Override
    public void write(WireWriter out, Kind kind, long at, int n) {
        inner.write(out, kind, at + offset, n);
    }

    @Override
    public void read(WireReader in, Kind kind, long at, int n) {
        inner.read(in, kind, at + offset, n);
    }

    @Override
    public ByteBuffer wireBytes(Kind kind, long at, int length) {
        return inner.wireBytes(kind, at + offset, length);
    }

    @Override
    public Origin wireOrigin(Kind kind) {
        Origin o = inner.wireOrigin(kind);
        return o == null ? null : new Origin(o.buffer(), o.offset() + offset);
    }

    @Override
    public String describe() {
        return inner.describe() + " from byte " + offset;
    }
}
