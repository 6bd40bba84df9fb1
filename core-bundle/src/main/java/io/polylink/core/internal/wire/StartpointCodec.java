package io.polylink.core.internal.wire;

import io.polylink.ContextId;
import io.polylink.MalformedMessageException;
import java.nio.ByteBuffer;
import java.util.Base64;

/**
 * Wire forms of a startpoint. Network byte order.
 *
 * <pre>
 *   in a message:  count:u8 (context:16 endpoint:i32 tableId:i64){count}        1 + 28 bytes a target
 *   as text:       "polylink:" base64url( version:u8 count:u8 (context:16 endpoint:i32 table){count} )
 * </pre>
 *
 * In a message only the table id travels; the core sends each table once per connection ahead of
 * the frame that first refers to it ({@link ControlFrame#TABLE}). Text carries the full
 * tables, since it has no connection to lean on.
 */
public final class StartpointCodec {

    public static final String TEXT_PREFIX = "polylink:";
    public static final int MAX_TARGETS = 255;
    public static final int REFERENCE_BYTES_PER_TARGET = ContextId.BYTES + 4 + 8;
    private static final int TEXT_VERSION = 1;

    /** A decoded target before it is bound to a runtime. */
    public record TargetRef(ContextId context, int endpoint, EncodedTable table) {}

    private StartpointCodec() {}

    public static int referenceLength(int targets) {
        return 1 + targets * REFERENCE_BYTES_PER_TARGET;
    }

    public static void writeReference(ByteBuffer out, int at, TargetRef[] targets) {
        out.put(at++, (byte) targets.length);
        for (TargetRef t : targets) {
            out.putLong(at, t.context().high()).putLong(at + 8, t.context().low())
                .putInt(at + 16, t.endpoint()).putLong(at + 20, t.table().id());
            at += REFERENCE_BYTES_PER_TARGET;
        }
    }

    /**
     * Reads a reference form at {@code in}'s position and moves past it.
     *
     * @throws MalformedMessageException if it is truncated, empty, or names a table that
     *     {@code tables} does not know
     */
    public static TargetRef[] readReference(ByteBuffer in, TableResolver tables) {
        int count = WireInput.need(in, 1, "startpoint").get() & 0xFF;
        if (count == 0) {
            throw new MalformedMessageException("startpoint with no target");
        }
        WireInput.need(in, count * REFERENCE_BYTES_PER_TARGET, "startpoint of " + count + " targets");
        TargetRef[] targets = new TargetRef[count];
        for (int i = 0; i < count; i++) {
            ContextId context = new ContextId(in.getLong(), in.getLong());
            int endpoint = in.getInt();
            long tableId = in.getLong();
            EncodedTable table = tables.resolve(tableId);
            if (table == null) {
                throw new MalformedMessageException("startpoint refers to descriptor table "
                    + Long.toHexString(tableId) + " of context " + context
                    + ", which this connection never carried");
            }
            targets[i] = new TargetRef(context, endpoint, table);
        }
        return targets;
    }

    public static String toText(TargetRef[] targets) {
        int size = 2;
        for (TargetRef t : targets) {
            size += REFERENCE_BYTES_PER_TARGET - 8 + t.table().bytes().length;
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.put((byte) TEXT_VERSION).put((byte) targets.length);
        for (TargetRef t : targets) {
            out.putLong(t.context().high()).putLong(t.context().low()).putInt(t.endpoint())
                .put(t.table().bytes());
        }
        return TEXT_PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(out.array());
    }

    /** @throws MalformedMessageException naming what is wrong with {@code text} */
    public static TargetRef[] fromText(String text) {
        if (!text.startsWith(TEXT_PREFIX)) {
            throw new MalformedMessageException("not a startpoint: text must start with '"
                + TEXT_PREFIX + "'");
        }
        byte[] bytes;
        try {
            bytes = Base64.getUrlDecoder().decode(text.substring(TEXT_PREFIX.length()).strip());
        } catch (IllegalArgumentException e) {
            throw new MalformedMessageException("not a startpoint: " + e.getMessage(), e);
        }
        return fromBytes(ByteBuffer.wrap(bytes));
    }

    public static TargetRef[] fromBytes(ByteBuffer in) {
        int version = WireInput.need(in, 1, "startpoint version").get() & 0xFF;
        if (version != TEXT_VERSION) {
            throw new MalformedMessageException("startpoint text of version " + version
                + ", this context reads " + TEXT_VERSION);
        }
        int count = WireInput.need(in, 1, "startpoint target count").get() & 0xFF;
        if (count == 0) {
            throw new MalformedMessageException("startpoint with no target");
        }
        TargetRef[] targets = new TargetRef[count];
        for (int i = 0; i < count; i++) {
            WireInput.need(in, ContextId.BYTES + 4, "startpoint target " + (i + 1));
            ContextId context = new ContextId(in.getLong(), in.getLong());
            int endpoint = in.getInt();
            targets[i] = new TargetRef(context, endpoint, TableCodec.read(in));
        }
        if (in.hasRemaining()) {
            throw new MalformedMessageException("startpoint text has " + in.remaining()
                + " bytes after its last target");
        }
        return targets;
    }
}
