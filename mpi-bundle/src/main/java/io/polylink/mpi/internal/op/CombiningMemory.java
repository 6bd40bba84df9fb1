package io.polylink.mpi.internal.op;

import io.polylink.mpi.internal.datatype.Kind;
import io.polylink.mpi.internal.datatype.Memory;
import io.polylink.mpi.internal.datatype.WireReader;
import io.polylink.mpi.internal.datatype.WireWriter;
import java.lang.reflect.Array;

/**
 * An operand's array as a receive buffer that combines: a value arriving for element {@code i}
 * makes {@code array[i] = value op array[i]}. A partial result absorbs a message while it is
 * unpacked, with no operand to receive into and no second pass over the data. Values are staged a
 * few thousand at a time in an array of their kind, small enough to stay in the core's first-level
 * cache. One receive unpacks into it, one piece after the other, so the stage is its own.
 */
final class CombiningMemory implements Memory {

    private static final int STAGE_BYTES = 8 * 1024;

    private final Kernel kernel;
    private final Kind kind;
    private final Object array;
    private final int length;
    private Object stage;

    /** @param array the operand's {@code length} values of {@code kind}, combined with what arrives */
    CombiningMemory(Kernel kernel, Kind kind, Object array, int length) {
        this.kernel = kernel;
        this.kind = kind;
        this.array = array;
        this.length = length;
    }

    @Override
    public long capacity() {
        return (long) length * kind.size();
    }

    @Override
    public boolean holds(Kind k) {
        return k == kind;
    }

    @Override
    public int granularity() {
        return kind.size();
    }

    @Override
    public void write(WireWriter out, Kind k, long at, int n) {
        throw new UnsupportedOperationException("a combining receive buffer is never sent from");
    }

    @Override
    public void read(WireReader in, Kind k, long at, int n) {
        int first = (int) (at / kind.size());
        int perStage = STAGE_BYTES / kind.size();
        Object s = stage(Math.min(n, perStage));
        for (int done = 0; done < n; ) {
            int m = Math.min(perStage, n - done);
            stageIn(in, s, m);
            int from = first + done;
            kernel.apply(s, -from, array, from, from + m);
            done += m;
        }
    }

    private void stageIn(WireReader in, Object s, int m) {
        switch (kind) {
            case BYTE -> in.getBytes((byte[]) s, 0, m);
            case BOOLEAN -> {
                boolean[] b = (boolean[]) s;
                for (int i = 0; i < m; i++) {
                    b[i] = in.getByte() != 0;
                }
            }
            default -> in.getValues(kind, s, 0, m);
        }
    }

    private Object stage(int n) {
        if (stage == null || Array.getLength(stage) < n) {
            stage = kind.newArray(n);
        }
        return stage;
    }

    @Override
    public String describe() {
        return kind.javaName() + "[" + length + "], combined into";
    }
}
