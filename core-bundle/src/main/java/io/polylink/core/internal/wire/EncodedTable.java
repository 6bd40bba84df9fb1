package io.polylink.core.internal.wire;

import io.polylink.DescriptorTable;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A descriptor table with the origin of the context whose table it is, its wire bytes
 * ({@link TableCodec}) and its id: the first 64 bits of the SHA-256 of those bytes. The receiver
 * computes the id itself, so a peer cannot file a table under another's id.
 *
 * @param table the entries
 * @param origin where the context whose table it is runs, as it said
 * @param bytes the wire form
 * @param id the id of the wire form
 */
public record EncodedTable(DescriptorTable table, Origin origin, byte[] bytes, long id) {

    /** @return the table of a context of {@code origin}, encoded */
    public static EncodedTable of(DescriptorTable table, Origin origin) {
        byte[] bytes = TableCodec.encode(table, origin);
        return new EncodedTable(table, origin, bytes, idOf(bytes, 0, bytes.length));
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
