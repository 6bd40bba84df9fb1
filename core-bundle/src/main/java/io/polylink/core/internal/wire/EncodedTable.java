package io.polylink.core.internal.wire;

import io.polylink.DescriptorTable;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A descriptor table with its wire bytes and its id: the first 64 bits of the SHA-256 of those
 * bytes. The receiver computes the id itself, so a peer cannot file a table under another's id.
 */
public record EncodedTable(DescriptorTable table, byte[] bytes, long id) {

    public static EncodedTable of(DescriptorTable table) {
        byte[] bytes = TableCodec.encode(table);
        return new EncodedTable(table, bytes, idOf(bytes, 0, bytes.length));
    }

    public static long idOf(byte[] bytes, int offset, int length) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(bytes, offset, length);
            return ByteBuffer.wrap(sha.digest()).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java 17 runtime has SHA-256", e);
        }
    }
}
