package io.polylink.core.internal.buffer;

import io.polylink.MalformedMessageException;
import io.polylink.MessageBuffer;
import io.polylink.MessageTooLargeException;
import io.polylink.Startpoint;
import io.polylink.core.internal.wire.EncodedTable;
import io.polylink.core.internal.wire.StartpointCodec.TargetRef;
import io.polylink.core.internal.wire.StartpointCodec;
import io.polylink.core.internal.wire.TableResolver;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * A message over a {@link ByteBuffer} region {@code [base, base + length)}, read and written with
 * absolute accesses so the buffer's own position is free for handing the payload to a method.
 *
 * <p>A buffer the application allocated is writable and grows up to the context's maximum message
 * size. A buffer handed to a handler wraps the received bytes in place and is read-only.
 *
 * <p>A buffer sent more than once moves into a {@link SharedStore}, and from then on the flows
 * that send it keep its bytes by holding the store rather than copying them ({@link #share}).
 * A buffer sent once and dropped, as many are, stays on the heap: its memory goes with the next
 * young collection, where direct memory would wait for one that might not come for a long time.
 */
public final class MessageBufferImpl implements MessageBuffer {

    private static final int INITIAL_TABLE_SLOTS = 2;
    /**
     * Arrays of up to this many values move value by value: a bulk copy's two views cost more
     * than that many absolute accesses, and allocate.
     */
    private static final int BY_VALUE = 16;

    private final MessageBuffers owner;
    private ByteBuffer bytes;
    /** What {@link #bytes} views once the buffer was sent twice; {@code null} before. */
    private SharedStore store;
    /** Bytes the application lent, which follow {@link #length} bytes of this buffer's own; or {@code null}. */
    private LentBytes lent;
    private boolean sentOnce;
    private int base;
    private int length;
    private int readIndex;
    private boolean readOnly;
    /** Tables of the startpoints written into this message, to send ahead of it. */
    private EncodedTable[] tables;
    private int tableCount;
    /** Where the startpoints read from this message find their tables. */
    private TableResolver resolver = TableResolver.NONE;

    MessageBufferImpl(MessageBuffers owner, int capacity) {
        this.owner = owner;
        this.bytes = ByteBuffer.allocate(capacity);
    }

    /**
     * @return the buffer as this implementation
     * @throws IllegalArgumentException if another implementation made it
     */
    public static MessageBufferImpl own(MessageBuffer buffer) {
        if (buffer instanceof MessageBufferImpl b) {
            return b;
        }
        throw new IllegalArgumentException("message buffer " + buffer + " was not made by a Polylink "
            + "context; allocate it with Context.allocateBuffer");
    }

    /** Points this buffer at a received payload; valid while {@code frame} is. */
    public MessageBufferImpl wrap(ByteBuffer frame, int offset, int payloadLength, TableResolver tables) {
        this.bytes = frame;
        this.base = offset;
        this.length = payloadLength;
        this.readIndex = 0;
        this.readOnly = true;
        this.resolver = tables;
        this.tableCount = 0;
        return this;
    }

    /** @return a private read-only copy, for a handler that runs later on another thread */
    public MessageBufferImpl detachedCopy() {
        MessageBufferImpl copy = new MessageBufferImpl(owner, length);
        copy.bytes.put(0, bytes, base, length);
        copy.length = length;
        copy.readIndex = readIndex;
        copy.readOnly = true;
        copy.resolver = tableCount == 0 ? resolver : chain(Arrays.copyOf(tables, tableCount), resolver);
        return copy;
    }

    /** @return a copy to send later, lent bytes and all, with the tables of the startpoints written into it */
    public MessageBufferImpl sendableCopy() {
        MessageBufferImpl copy = new MessageBufferImpl(owner, length());
        copy.bytes.put(0, bytes, base, length);
        if (lent != null) {
            lent.copyTo(copy.bytes, length);
        }
        copy.length = length();
        if (tableCount > 0) {
            copy.tables = Arrays.copyOf(tables, tableCount);
            copy.tableCount = tableCount;
        }
        return copy;
    }

    /** Makes a message being sent look received for an inline handler in this context. */
    public void beginLocalDelivery() {
        readIndex = 0;
        readOnly = true;
    }

    public void endLocalDelivery() {
        readOnly = false;
    }

    /**
     * @return the buffer's own bytes, positioned at the first, for a method to consume; any
     *     {@linkplain #lent() lent bytes} follow them
     */
    public ByteBuffer payload() {
        return bytes.limit(base + length).position(base);
    }

    /**
     * Lets a flow keep this buffer's bytes for replay without copying them: from its second send,
     * a writable buffer moves into a store of the context's pool, and each caller holds it until
     * it lets go with {@link SharedStore#release()}.
     *
     * @return the store, its first {@link #length()} bytes the payload, held for the caller; or
     *     {@code null} if the caller must copy
     */
    public SharedStore share() {
        if (readOnly || base != 0 || lent != null) {
            return null;
        }
        if (store == null) {
            if (!sentOnce) {
                sentOnce = true;
                return null;
            }
            moveTo(owner.stores.take(length), length);
        }
        store.retain();
        return store;
    }

    /** Copies the first {@code keep} bytes written into {@code next} and writes there from now on. */
    private void moveTo(SharedStore next, int keep) {
        ByteBuffer view = next.view();
        view.put(0, bytes, 0, keep);
        SharedStore old = store;
        store = next;
        bytes = view;
        if (old != null) {
            old.release();
        }
    }

    /** @return the bytes the application lent this message, which follow {@link #payload()}; or {@code null} */
    public LentBytes lent() {
        return lent;
    }

    /**
     * Copies the lent bytes in after the buffer's own and lets go of them, for a path that reads
     * the message rather than sending it as it is: delivery in this context, a small RSR's copy.
     */
    public void flatten() {
        LentBytes l = lent;
        if (l == null) {
            return;
        }
        lent = null; // first: reserve flattens while it is set
        int at = reserve(l.length());
        l.copyTo(bytes, at);
        l.release();
    }

    /** Undoes {@link #payload()} so writes can use the full capacity again. */
    public void releasePayload() {
        bytes.clear();
    }

    public EncodedTable[] tables() {
        return tables;
    }

    public int tableCount() {
        return tableCount;
    }

    public TableResolver resolver() {
        return tableCount == 0 ? resolver : chain(Arrays.copyOf(tables, tableCount), resolver);
    }

    // ---- MessageBuffer

    @Override
    public int length() {
        return lent == null ? length : length + lent.length();
    }

    @Override
    public int remaining() {
        return length() - readIndex;
    }

    @Override
    public int readIndex() {
        return readIndex;
    }

    @Override
    public MessageBuffer clear() {
        checkWritable();
        if (store != null && store.shared()) {
            // A flow still keeps what was sent: write the next message elsewhere, in a store the
            // size of this one's message, not of its capacity. Flows bound what they keep by
            // messages' lengths, and a buffer allocated at 8 MiB and refilled with 20 KiB would
            // otherwise hold 8 MiB per RSR waiting for its acknowledgement.
            moveTo(owner.stores.take(length), 0);
        }
        if (lent != null) {
            lent.release();
            lent = null;
        }
        length = 0;
        readIndex = 0;
        if (tableCount > 0) {
            Arrays.fill(tables, 0, tableCount, null);
            tableCount = 0;
        }
        return this;
    }

    @Override
    public MessageBuffer rewind() {
        readIndex = 0;
        return this;
    }

    @Override
    public MessageBuffer putByte(byte value) {
        int at = reserve(1);
        bytes.put(at, value);
        return this;
    }

    @Override
    public MessageBuffer putBoolean(boolean value) {
        return putByte(value ? (byte) 1 : 0);
    }

    @Override
    public MessageBuffer putShort(short value) {
        int at = reserve(2);
        bytes.putShort(at, value);
        return this;
    }

    @Override
    public MessageBuffer putInt(int value) {
        int at = reserve(4);
        bytes.putInt(at, value);
        return this;
    }

    @Override
    public MessageBuffer putLong(long value) {
        int at = reserve(8);
        bytes.putLong(at, value);
        return this;
    }

    @Override
    public MessageBuffer putFloat(float value) {
        int at = reserve(4);
        bytes.putFloat(at, value);
        return this;
    }

    @Override
    public MessageBuffer putDouble(double value) {
        int at = reserve(8);
        bytes.putDouble(at, value);
        return this;
    }

    @Override
    public MessageBuffer putBytes(byte[] value) {
        return putBytes(value, 0, value.length);
    }

    @Override
    public MessageBuffer putBytes(byte[] value, int offset, int count) {
        Objects.checkFromIndexSize(offset, count, value.length);
        int at = reserve(4 + count);
        bytes.putInt(at, count).put(at + 4, value, offset, count);
        return this;
    }

    @Override
    public MessageBuffer putRaw(byte[] value, int offset, int count) {
        Objects.checkFromIndexSize(offset, count, value.length);
        int at = reserve(count);
        bytes.put(at, value, offset, count);
        return this;
    }

    @Override
    public MessageBuffer putRaw(ByteBuffer source, int offset, int count) {
        Objects.checkFromIndexSize(offset, count, source.capacity());
        int at = reserve(count);
        bytes.put(at, wholly(source, offset + count), offset, count);
        return this;
    }

    @Override
    public MessageBuffer putLent(ByteBuffer source, int offset, int count, Runnable released) {
        Objects.checkFromIndexSize(offset, count, source.capacity());
        Objects.requireNonNull(released, "released");
        checkWritable();
        flatten(); // a second loan: the first is copied in, so the lent bytes stay one run at the end
        checkWithinMaximum((long) length + count);
        lent = new LentBytes(source, offset, count, released);
        return this;
    }

    /** @return {@code b}, or a view of it up to its capacity if its limit is short of {@code end}: limits do not count */
    private static ByteBuffer wholly(ByteBuffer b, int end) {
        return end <= b.limit() ? b : b.duplicate().clear();
    }

    @Override
    public MessageBuffer putShorts(short[] values, int offset, int count) {
        return putShorts(values, offset, count, ByteOrder.BIG_ENDIAN);
    }

    @Override
    public MessageBuffer putShorts(short[] values, int offset, int count, ByteOrder order) {
        Objects.checkFromIndexSize(offset, count, values.length);
        if (count <= BY_VALUE) {
            int at = reserve(count * 2);
            boolean swap = order != bytes.order();
            for (int i = 0; i < count; i++) {
                short v = values[offset + i];
                bytes.putShort(at + 2 * i, swap ? Short.reverseBytes(v) : v);
            }
            return this;
        }
        appended(count, 2).order(order).asShortBuffer().put(values, offset, count);
        return this;
    }

    @Override
    public MessageBuffer putChars(char[] values, int offset, int count) {
        return putChars(values, offset, count, ByteOrder.BIG_ENDIAN);
    }

    @Override
    public MessageBuffer putChars(char[] values, int offset, int count, ByteOrder order) {
        Objects.checkFromIndexSize(offset, count, values.length);
        if (count <= BY_VALUE) {
            int at = reserve(count * 2);
            boolean swap = order != bytes.order();
            for (int i = 0; i < count; i++) {
                char v = values[offset + i];
                bytes.putChar(at + 2 * i, swap ? Character.reverseBytes(v) : v);
            }
            return this;
        }
        appended(count, 2).order(order).asCharBuffer().put(values, offset, count);
        return this;
    }

    @Override
    public MessageBuffer putInts(int[] values, int offset, int count) {
        return putInts(values, offset, count, ByteOrder.BIG_ENDIAN);
    }

    @Override
    public MessageBuffer putInts(int[] values, int offset, int count, ByteOrder order) {
        Objects.checkFromIndexSize(offset, count, values.length);
        if (count <= BY_VALUE) {
            int at = reserve(count * 4);
            boolean swap = order != bytes.order();
            for (int i = 0; i < count; i++) {
                int v = values[offset + i];
                bytes.putInt(at + 4 * i, swap ? Integer.reverseBytes(v) : v);
            }
            return this;
        }
        appended(count, 4).order(order).asIntBuffer().put(values, offset, count);
        return this;
    }

    @Override
    public MessageBuffer putLongs(long[] values, int offset, int count) {
        return putLongs(values, offset, count, ByteOrder.BIG_ENDIAN);
    }

    @Override
    public MessageBuffer putLongs(long[] values, int offset, int count, ByteOrder order) {
        Objects.checkFromIndexSize(offset, count, values.length);
        if (count <= BY_VALUE) {
            int at = reserve(count * 8);
            boolean swap = order != bytes.order();
            for (int i = 0; i < count; i++) {
                long v = values[offset + i];
                bytes.putLong(at + 8 * i, swap ? Long.reverseBytes(v) : v);
            }
            return this;
        }
        appended(count, 8).order(order).asLongBuffer().put(values, offset, count);
        return this;
    }

    @Override
    public MessageBuffer putFloats(float[] values, int offset, int count) {
        return putFloats(values, offset, count, ByteOrder.BIG_ENDIAN);
    }

    @Override
    public MessageBuffer putFloats(float[] values, int offset, int count, ByteOrder order) {
        Objects.checkFromIndexSize(offset, count, values.length);
        if (count <= BY_VALUE) {
            int at = reserve(count * 4);
            boolean swap = order != bytes.order();
            for (int i = 0; i < count; i++) {
                int v = Float.floatToRawIntBits(values[offset + i]);
                bytes.putInt(at + 4 * i, swap ? Integer.reverseBytes(v) : v);
            }
            return this;
        }
        appended(count, 4).order(order).asFloatBuffer().put(values, offset, count);
        return this;
    }

    @Override
    public MessageBuffer putDoubles(double[] values, int offset, int count) {
        return putDoubles(values, offset, count, ByteOrder.BIG_ENDIAN);
    }

    @Override
    public MessageBuffer putDoubles(double[] values, int offset, int count, ByteOrder order) {
        Objects.checkFromIndexSize(offset, count, values.length);
        if (count <= BY_VALUE) {
            int at = reserve(count * 8);
            boolean swap = order != bytes.order();
            for (int i = 0; i < count; i++) {
                long v = Double.doubleToRawLongBits(values[offset + i]);
                bytes.putLong(at + 8 * i, swap ? Long.reverseBytes(v) : v);
            }
            return this;
        }
        appended(count, 8).order(order).asDoubleBuffer().put(values, offset, count);
        return this;
    }

    @Override
    public MessageBuffer putString(String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        return putBytes(utf8, 0, utf8.length);
    }

    @Override
    public MessageBuffer putStartpoint(Startpoint value) {
        TargetRef[] targets = owner.startpoints.targets(value);
        int at = reserve(StartpointCodec.referenceLength(targets.length));
        StartpointCodec.writeReference(bytes, at, targets);
        for (TargetRef t : targets) {
            remember(t.table());
        }
        return this;
    }

    @Override
    public byte getByte() {
        return bytes.get(consume(1, "byte"));
    }

    @Override
    public boolean getBoolean() {
        byte b = getByte();
        if (b != 0 && b != 1) {
            throw new MalformedMessageException("boolean at offset " + (readIndex - 1)
                + " is " + b + ", expected 0 or 1");
        }
        return b == 1;
    }

    @Override
    public short getShort() {
        return bytes.getShort(consume(2, "short"));
    }

    @Override
    public int getInt() {
        return bytes.getInt(consume(4, "int"));
    }

    @Override
    public long getLong() {
        return bytes.getLong(consume(8, "long"));
    }

    @Override
    public float getFloat() {
        return bytes.getFloat(consume(4, "float"));
    }

    @Override
    public double getDouble() {
        return bytes.getDouble(consume(8, "double"));
    }

    @Override
    public byte[] getBytes() {
        int count = lengthPrefix("byte array");
        byte[] out = new byte[count];
        bytes.get(consume(count, "byte array"), out);
        return out;
    }

    @Override
    public void getRaw(byte[] target, int offset, int count) {
        Objects.checkFromIndexSize(offset, count, target.length);
        bytes.get(consume(count, "raw bytes"), target, offset, count);
    }

    @Override
    public void getRaw(ByteBuffer target, int offset, int count) {
        Objects.checkFromIndexSize(offset, count, target.capacity());
        // Before consuming: a refused read leaves the message where it was.
        if (target.isReadOnly()) {
            throw new ReadOnlyBufferException();
        }
        wholly(target, offset + count).put(offset, bytes, consume(count, "raw bytes"), count);
    }

    @Override
    public void getShorts(short[] target, int offset, int count) {
        getShorts(target, offset, count, ByteOrder.BIG_ENDIAN);
    }

    @Override
    public void getShorts(short[] target, int offset, int count, ByteOrder order) {
        Objects.checkFromIndexSize(offset, count, target.length);
        if (count <= BY_VALUE) {
            int at = consumedAt(count, 2, "shorts");
            boolean swap = order != bytes.order();
            for (int i = 0; i < count; i++) {
                short v = bytes.getShort(at + 2 * i);
                target[offset + i] = swap ? Short.reverseBytes(v) : v;
            }
            return;
        }
        consumed(count, 2, "shorts").order(order).asShortBuffer().get(target, offset, count);
    }

    @Override
    public void getChars(char[] target, int offset, int count) {
        getChars(target, offset, count, ByteOrder.BIG_ENDIAN);
    }

    @Override
    public void getChars(char[] target, int offset, int count, ByteOrder order) {
        Objects.checkFromIndexSize(offset, count, target.length);
        if (count <= BY_VALUE) {
            int at = consumedAt(count, 2, "chars");
            boolean swap = order != bytes.order();
            for (int i = 0; i < count; i++) {
                char v = bytes.getChar(at + 2 * i);
                target[offset + i] = swap ? Character.reverseBytes(v) : v;
            }
            return;
        }
        consumed(count, 2, "chars").order(order).asCharBuffer().get(target, offset, count);
    }

    @Override
    public void getInts(int[] target, int offset, int count) {
        getInts(target, offset, count, ByteOrder.BIG_ENDIAN);
    }

    @Override
    public void getInts(int[] target, int offset, int count, ByteOrder order) {
        Objects.checkFromIndexSize(offset, count, target.length);
        if (count <= BY_VALUE) {
            int at = consumedAt(count, 4, "ints");
            boolean swap = order != bytes.order();
            for (int i = 0; i < count; i++) {
                int v = bytes.getInt(at + 4 * i);
                target[offset + i] = swap ? Integer.reverseBytes(v) : v;
            }
            return;
        }
        consumed(count, 4, "ints").order(order).asIntBuffer().get(target, offset, count);
    }

    @Override
    public void getLongs(long[] target, int offset, int count) {
        getLongs(target, offset, count, ByteOrder.BIG_ENDIAN);
    }

    @Override
    public void getLongs(long[] target, int offset, int count, ByteOrder order) {
        Objects.checkFromIndexSize(offset, count, target.length);
        if (count <= BY_VALUE) {
            int at = consumedAt(count, 8, "longs");
            boolean swap = order != bytes.order();
            for (int i = 0; i < count; i++) {
                long v = bytes.getLong(at + 8 * i);
                target[offset + i] = swap ? Long.reverseBytes(v) : v;
            }
            return;
        }
        consumed(count, 8, "longs").order(order).asLongBuffer().get(target, offset, count);
    }

    @Override
    public void getFloats(float[] target, int offset, int count) {
        getFloats(target, offset, count, ByteOrder.BIG_ENDIAN);
    }

    @Override
    public void getFloats(float[] target, int offset, int count, ByteOrder order) {
        Objects.checkFromIndexSize(offset, count, target.length);
        if (count <= BY_VALUE) {
            int at = consumedAt(count, 4, "floats");
            boolean swap = order != bytes.order();
            for (int i = 0; i < count; i++) {
                int v = bytes.getInt(at + 4 * i);
                target[offset + i] = Float.intBitsToFloat(swap ? Integer.reverseBytes(v) : v);
            }
            return;
        }
        consumed(count, 4, "floats").order(order).asFloatBuffer().get(target, offset, count);
    }

    @Override
    public void getDoubles(double[] target, int offset, int count) {
        getDoubles(target, offset, count, ByteOrder.BIG_ENDIAN);
    }

    @Override
    public void getDoubles(double[] target, int offset, int count, ByteOrder order) {
        Objects.checkFromIndexSize(offset, count, target.length);
        if (count <= BY_VALUE) {
            int at = consumedAt(count, 8, "doubles");
            boolean swap = order != bytes.order();
            for (int i = 0; i < count; i++) {
                long v = bytes.getLong(at + 8 * i);
                target[offset + i] = Double.longBitsToDouble(swap ? Long.reverseBytes(v) : v);
            }
            return;
        }
        consumed(count, 8, "doubles").order(order).asDoubleBuffer().get(target, offset, count);
    }

    @Override
    public String getString() {
        int count = lengthPrefix("string");
        int at = consume(count, "string");
        try {
            CharBuffer chars = StandardCharsets.UTF_8.newDecoder()
                .decode(bytes.duplicate().limit(at + count).position(at));
            return chars.toString();
        } catch (CharacterCodingException e) {
            throw new MalformedMessageException("string at offset " + (at - base - 4)
                + " is not valid UTF-8", e);
        }
    }

    @Override
    public Startpoint getStartpoint() {
        flatten();
        ByteBuffer view = bytes.duplicate().limit(base + length).position(base + readIndex);
        TargetRef[] targets = StartpointCodec.readReference(view, resolver());
        readIndex = view.position() - base;
        return owner.startpoints.startpoint(targets);
    }

    @Override
    public String toString() {
        return "MessageBuffer[length=" + length() + ", read=" + readIndex + (readOnly ? ", received]" : "]");
    }

    // ---- internals

    /** Makes room for {@code count} more bytes; may replace {@link #bytes}, so call it first. */
    private int reserve(int count) {
        checkWritable();
        flatten();
        int at = length;
        long needed = (long) at + count;
        if (needed > bytes.capacity()) {
            grow(needed);
        }
        length = (int) needed;
        return at;
    }

    private void grow(long needed) {
        checkWithinMaximum(needed);
        int max = owner.maxMessageSize;
        int capacity = (int) Math.min(max, Math.max(needed, 2L * bytes.capacity()));
        if (store != null) {
            moveTo(owner.stores.take(capacity), length);
            return;
        }
        ByteBuffer bigger = ByteBuffer.allocate(capacity);
        bigger.put(0, bytes, 0, length);
        bytes = bigger;
    }

    /** @throws MessageTooLargeException if a message of {@code needed} bytes exceeds the context's maximum */
    private void checkWithinMaximum(long needed) {
        if (needed > owner.maxMessageSize) {
            throw new MessageTooLargeException("message of " + needed + " bytes exceeds the maximum of "
                + owner.maxMessageSize + "; split it or raise maxMessageSize in the io.polylink.core configuration");
        }
    }

    /**
     * Appends room for {@code count} values of {@code size} bytes.
     *
     * @return a view of it, in network byte order until the caller orders it otherwise, for one bulk copy
     */
    private ByteBuffer appended(int count, int size) {
        long n = (long) count * size;
        if (n > Integer.MAX_VALUE) {
            grow(length + n); // throws: no message is that large
        }
        int at = reserve((int) n); // first: it may replace the buffer
        return bytes.slice(at, (int) n);
    }

    /**
     * Consumes {@code count} values of {@code size} bytes.
     *
     * @return a view of them, in network byte order until the caller orders it otherwise, for one bulk copy
     */
    private ByteBuffer consumed(int count, int size, String what) {
        return bytes.slice(consumedAt(count, size, what), count * size);
    }

    /** Consumes {@code count} values of {@code size} bytes. @return the index of the first in {@link #bytes} */
    private int consumedAt(int count, int size, String what) {
        flatten();
        long n = (long) count * size;
        if (n > length - readIndex) {
            throw new MalformedMessageException("read of " + count + " " + what + " (" + n + " bytes) at offset "
                + readIndex + " runs past the end of the " + length + "-byte message");
        }
        return consume((int) n, what);
    }

    private void checkWritable() {
        if (readOnly) {
            throw new IllegalStateException("a received message is read-only; allocate a buffer "
                + "from the context to reply");
        }
    }

    private int consume(int count, String what) {
        flatten();
        if (count > length - readIndex) {
            throw new MalformedMessageException("read of " + what + " (" + count + " bytes) at offset "
                + readIndex + " runs past the end of the " + length + "-byte message");
        }
        int at = base + readIndex;
        readIndex += count;
        return at;
    }

    private int lengthPrefix(String what) {
        int count = bytes.getInt(consume(4, what + " length"));
        if (count < 0 || count > length - readIndex) {
            readIndex -= 4;
            throw new MalformedMessageException(what + " at offset " + readIndex + " declares "
                + count + " bytes, " + (length - readIndex - 4) + " are left");
        }
        return count;
    }

    private void remember(EncodedTable table) {
        for (int i = 0; i < tableCount; i++) {
            if (tables[i].id() == table.id()) {
                return;
            }
        }
        if (tables == null) {
            tables = new EncodedTable[INITIAL_TABLE_SLOTS];
        } else if (tableCount == tables.length) {
            tables = Arrays.copyOf(tables, tableCount * 2);
        }
        tables[tableCount++] = table;
    }

    private static TableResolver chain(EncodedTable[] own, TableResolver next) {
        return id -> {
            for (EncodedTable t : own) {
                if (t.id() == id) {
                    return t;
                }
            }
            return next.resolve(id);
        };
    }
}
