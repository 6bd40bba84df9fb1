package io.polylink.mpi.internal.op;

import io.polylink.mpi.internal.datatype.Kind;
import io.polylink.mpi.internal.datatype.Memory;
import io.polylink.mpi.internal.datatype.WireReader;
import io.polylink.mpi.internal.datatype.WireWriter;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;

/**
 * An operand's values as a receive buffer that combines: a value arriving for element {@code i}
 * makes {@code values[i] = value op source[i]}, where {@code source} is the operand itself or, for
 * a rank's own data not yet loaded into it, that data. A partial result absorbs a message while it
 * is unpacked, with no operand to receive into and no second pass over the data, and its own data
 * is loaded in the same pass. Values are staged a few thousand at a time in arrays of their kind,
 * small enough to stay in the core's first-level cache; the operand's own values are staged too
 * where they lie in a direct buffer. One receive unpacks into it, one piece after the other, so
 * the stages are its own.
 */
final class CombiningMemory implements Memory {

    private static final int STAGE_BYTES = 8 * 1024;

    private final Kernel kernel;
    private final Kind kind;
    private final Object values;
    private final Object source;
    private final int length;
    private Object arrived;
    private Object staged;

    /**
     * @param kernel the operation's loop on arrays of {@code kind}
     * @param values the operand's {@code length} values: an array of {@code kind}, or a byte buffer
     *     of them in native order
     * @param source where each element's value before combining is, laid out as {@code values}:
     *     {@code values} itself, or data to combine with what arrives into {@code values}
     */
    CombiningMemory(Kernel kernel, Kind kind, Object values, Object source, int length) {
        this.kernel = kernel;
        this.kind = kind;
        this.values = values;
        this.source = source;
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
        int perStage = Math.min(n, STAGE_BYTES / kind.size());
        arrived = stage(arrived, perStage);
        if (values instanceof ByteBuffer) {
            staged = stage(staged, perStage);
        }
        for (int done = 0; done < n; ) {
            int m = Math.min(perStage, n - done);
            int from = first + done;
            stageIn(in, arrived, m);
            if (values instanceof ByteBuffer buffer) {
                copy(source, from, staged, 0, m);
                kernel.apply(arrived, 0, staged, 0, m);
                StagedKernel.store(staged, buffer, kind, from, m);
            } else {
                if (source != values) {
                    copy(source, from, values, from, m);
                }
                kernel.apply(arrived, -from, values, from, from + m);
            }
            done += m;
        }
    }

    /**
     * Copies values {@code index} to {@code index + m - 1} of {@code from} (an array, or a byte
     * buffer of values) to {@code to} from {@code at}.
     */
    private void copy(Object from, int index, Object to, int at, int m) {
        if (from instanceof ByteBuffer buffer) {
            StagedKernel.load(buffer, kind, index, to, at, m);
        } else {
            System.arraycopy(from, index, to, at, m);
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

    private Object stage(Object stage, int n) {
        return stage == null || Array.getLength(stage) < n ? kind.newArray(n) : stage;
    }

    @Override
    public String describe() {
        return kind.javaName() + "[" + length + "], combined into" + (source == values ? "" : " from another's data");
    }
}
