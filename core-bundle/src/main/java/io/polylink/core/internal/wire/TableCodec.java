package io.polylink.core.internal.wire;

import io.polylink.Descriptor;
import io.polylink.DescriptorTable;
import io.polylink.MalformedMessageException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Wire form of a descriptor table, with the origin of the context whose table it is. Network byte
 * order.
 *
 * <pre>
 *   table  := version:u8 (=2) origin count:u8 entry{count}
 *   origin := see {@link Origin}
 *   entry  := stackLength:u8 stack:ascii addressLength:u16 address:bytes
 * </pre>
 *
 * Every count and length is checked against {@link DescriptorTable#MAX_ENTRIES},
 * {@link Descriptor#MAX_STACK_LENGTH}, {@link Descriptor#MAX_ADDRESS_LENGTH}, the bounds of an
 * origin and the bytes left.
 */
public final class TableCodec {

    public static final int VERSION = 2;

    private TableCodec() {}

    /** @return the wire form of {@code table}, which a context of {@code origin} advertises */
    public static byte[] encode(DescriptorTable table, Origin origin) {
        int size = 2 + origin.length();
        for (Descriptor d : table) {
            size += 1 + d.stack().length() + 2 + d.addressLength();
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.put((byte) VERSION);
        origin.write(out);
        out.put((byte) table.size());
        for (Descriptor d : table) {
            byte[] stack = d.stack().getBytes(StandardCharsets.US_ASCII);
            out.put((byte) stack.length).put(stack).putShort((short) d.addressLength()).put(d.address());
        }
        return out.array();
    }

    /**
     * Reads one table from {@code in}'s position, leaving it after the table.
     *
     * @return the table with its origin, its bytes and their id
     * @throws MalformedMessageException naming what is wrong
     */
    public static EncodedTable read(ByteBuffer in) {
        int at = in.position();
        int version = WireInput.u8(in, "table version");
        if (version != VERSION) {
            throw new MalformedMessageException("descriptor table of version " + version
                + ", this context reads " + VERSION);
        }
        Origin origin = Origin.read(in);
        DescriptorTable table = entries(in);
        byte[] bytes = new byte[in.position() - at];
        in.get(at, bytes);
        return new EncodedTable(table, origin, bytes, EncodedTable.idOf(bytes, 0, bytes.length));
    }

    private static DescriptorTable entries(ByteBuffer in) {
        int count = WireInput.u8(in, "table entry count");
        if (count > DescriptorTable.MAX_ENTRIES) {
            throw new MalformedMessageException("descriptor table of " + count
                + " entries exceeds " + DescriptorTable.MAX_ENTRIES);
        }
        List<Descriptor> entries = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            byte[] stack = WireInput.bytes(in, WireInput.u8(in, "stack length"), "stack of entry " + (i + 1));
            int addressLength = WireInput.need(in, 2, "address length").getShort() & 0xFFFF;
            if (addressLength > Descriptor.MAX_ADDRESS_LENGTH) {
                throw new MalformedMessageException("descriptor address of " + addressLength
                    + " bytes exceeds " + Descriptor.MAX_ADDRESS_LENGTH);
            }
            byte[] address = WireInput.bytes(in, addressLength, "address of entry " + (i + 1));
            try {
                entries.add(new Descriptor(new String(stack, StandardCharsets.US_ASCII), address));
            } catch (IllegalArgumentException e) {
                // Not e's message: it quotes the stack as it came, control characters and all.
                throw new MalformedMessageException("descriptor table entry " + (i + 1)
                    + " has a malformed method stack '" + WireInput.printable(stack)
                    + "': expected names of [a-z0-9-] like 'tcp' or 'lz4+aead/tcp'", e);
            }
        }
        return DescriptorTable.of(entries);
    }
}
