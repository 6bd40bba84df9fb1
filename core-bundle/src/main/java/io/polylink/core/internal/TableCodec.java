package io.polylink.core.internal;

import io.polylink.Descriptor;
import io.polylink.DescriptorTable;
import io.polylink.MalformedMessageException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Wire form of a descriptor table. Network byte order.
 *
 * <pre>
 *   table  := version:u8 (=1) count:u8 entry{count}
 *   entry  := stackLength:u8 stack:ascii addressLength:u16 address:bytes
 * </pre>
 *
 * Every count and length is checked against {@link DescriptorTable#MAX_ENTRIES},
 * {@link Descriptor#MAX_STACK_LENGTH}, {@link Descriptor#MAX_ADDRESS_LENGTH} and the bytes left.
 */
final class TableCodec {

    static final int VERSION = 1;

    private TableCodec() {}

    static byte[] encode(DescriptorTable table) {
        int size = 2;
        for (Descriptor d : table) {
            size += 1 + d.stack().length() + 2 + d.addressLength();
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.put((byte) VERSION).put((byte) table.size());
        for (Descriptor d : table) {
            byte[] stack = d.stack().getBytes(StandardCharsets.US_ASCII);
            out.put((byte) stack.length).put(stack).putShort((short) d.addressLength()).put(d.address());
        }
        return out.array();
    }

    /**
     * Reads one table from {@code in}'s position, leaving it after the table.
     *
     * @throws MalformedMessageException naming what is wrong
     */
    static DescriptorTable decode(ByteBuffer in) {
        int version = u8(in, "table version");
        if (version != VERSION) {
            throw new MalformedMessageException("descriptor table of version " + version
                + ", this context reads " + VERSION);
        }
        int count = u8(in, "table entry count");
        if (count > DescriptorTable.MAX_ENTRIES) {
            throw new MalformedMessageException("descriptor table of " + count
                + " entries exceeds " + DescriptorTable.MAX_ENTRIES);
        }
        List<Descriptor> entries = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            byte[] stack = bytes(in, u8(in, "stack length"), "stack of entry " + (i + 1));
            int addressLength = need(in, 2, "address length").getShort() & 0xFFFF;
            if (addressLength > Descriptor.MAX_ADDRESS_LENGTH) {
                throw new MalformedMessageException("descriptor address of " + addressLength
                    + " bytes exceeds " + Descriptor.MAX_ADDRESS_LENGTH);
            }
            byte[] address = bytes(in, addressLength, "address of entry " + (i + 1));
            try {
                entries.add(new Descriptor(new String(stack, StandardCharsets.US_ASCII), address));
            } catch (IllegalArgumentException e) {
                // Not e's message: it quotes the stack as it came, control characters and all.
                throw new MalformedMessageException("descriptor table entry " + (i + 1)
                    + " has a malformed method stack '" + printable(stack)
                    + "': expected names of [a-z0-9-] like 'tcp' or 'lz4+aead/tcp'", e);
            }
        }
        return DescriptorTable.of(entries);
    }

    /**
     * Renders bytes from a peer for an error message: printable ASCII as is, anything else (and
     * the backslash) as {@code \xNN}, so a peer can neither forge nor break log lines. The caller
     * bounds the length.
     */
    static String printable(byte[] bytes) {
        StringBuilder out = new StringBuilder(bytes.length);
        for (byte b : bytes) {
            if (b >= 0x20 && b < 0x7f && b != '\\') {
                out.append((char) b);
            } else {
                out.append(String.format("\\x%02x", b & 0xFF));
            }
        }
        return out.toString();
    }

    private static int u8(ByteBuffer in, String what) {
        return need(in, 1, what).get() & 0xFF;
    }

    private static byte[] bytes(ByteBuffer in, int length, String what) {
        byte[] out = new byte[length];
        need(in, length, what).get(out);
        return out;
    }

    static ByteBuffer need(ByteBuffer in, int bytes, String what) {
        if (in.remaining() < bytes) {
            throw new MalformedMessageException("truncated " + what + ": needs " + bytes
                + " bytes, " + in.remaining() + " left");
        }
        return in;
    }
}
