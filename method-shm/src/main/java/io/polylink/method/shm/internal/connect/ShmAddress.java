package io.polylink.method.shm.internal.connect;

import io.polylink.MalformedMessageException;
import io.polylink.method.shm.internal.segment.SegmentDirectory;
import io.polylink.method.shm.internal.segment.TrustedDirectories;
import io.polylink.spi.Applicability;
import io.polylink.spi.HostIdentity;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * What the {@code shm} descriptor carries: the host identity, the segment directory and the name
 * of the context's inbox in it.
 *
 * <pre>
 *  version:u8 | host:32 (machine id, boot id) | dirLength:u16 | directory:utf-8 | nameLength:u8 | inbox name:ascii
 * </pre>
 *
 * @param host the host the context runs on, as its core names it
 * @param directory its segment directory, absolute
 * @param inbox the file name of its inbox in that directory
 */
public record ShmAddress(HostIdentity host, Path directory, String inbox) {

    /** The method whose descriptors these are. */
    public static final String METHOD = "shm";
    static final int VERSION = 1;
    private static final int MAX_DIRECTORY = 255;

    public byte[] encode() {
        byte[] dir = directory.toString().getBytes(StandardCharsets.UTF_8);
        byte[] name = inbox.getBytes(StandardCharsets.US_ASCII);
        if (dir.length > MAX_DIRECTORY) {
            throw new IllegalArgumentException("shm segment directory " + directory + " is longer than "
                + MAX_DIRECTORY + " bytes");
        }
        return ByteBuffer.allocate(1 + HostIdentity.BYTES + 2 + dir.length + 1 + name.length)
            .put((byte) VERSION).put(host.bytes())
            .putShort((short) dir.length).put(dir).put((byte) name.length).put(name).array();
    }

    /** @throws MalformedMessageException saying what is wrong with the bytes */
    public static ShmAddress decode(byte[] address) {
        try {
            ByteBuffer in = ByteBuffer.wrap(address);
            int version = in.get() & 0xFF;
            if (version != VERSION) {
                throw new MalformedMessageException("shm address of version " + version + ", this context reads "
                    + VERSION);
            }
            byte[] host = new byte[HostIdentity.BYTES];
            in.get(host);
            int dirLength = in.getShort() & 0xFFFF;
            if (dirLength > MAX_DIRECTORY || dirLength > in.remaining()) {
                throw new MalformedMessageException("shm address with a directory of " + dirLength + " bytes");
            }
            byte[] dir = new byte[dirLength];
            in.get(dir);
            byte[] name = new byte[in.get() & 0xFF];
            in.get(name);
            if (in.hasRemaining()) {
                throw new MalformedMessageException("shm address with " + in.remaining() + " trailing bytes");
            }
            String inbox = new String(name, StandardCharsets.US_ASCII);
            if (!SegmentDirectory.INBOX_NAME.matcher(inbox).matches()) {
                throw new MalformedMessageException("shm address names no inbox (got '"
                    + inbox.replaceAll("[^ -~]", "?") + "')");
            }
            Path directory = Path.of(StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(dir)).toString());
            if (!directory.isAbsolute()) {
                throw new MalformedMessageException("shm address with a relative directory");
            }
            return new ShmAddress(HostIdentity.fromBytes(host), directory.normalize(), inbox);
        } catch (BufferUnderflowException e) {
            throw new MalformedMessageException("shm address of " + address.length + " bytes is truncated");
        } catch (CharacterCodingException | InvalidPathException e) {
            throw new MalformedMessageException("shm address with an unreadable directory name");
        }
    }

    /**
     * A first look, by path, for selection; connecting checks the file through its descriptor.
     *
     * @param here the host of the context that would connect
     * @param trusted the directories whose inboxes that context maps
     * @return whether that context can write this inbox: only on the same host, where the segment
     *     directory is one it trusts and the inbox is there and writable; and if not, why
     */
    public Applicability applicability(HostIdentity here, TrustedDirectories trusted) {
        if (!here.sameHost(host)) {
            return Applicability.no(here.difference(host));
        }
        if (!trusted.trusts(directory)) {
            return Applicability.no(trusted.distrust(directory));
        }
        if (!Files.isDirectory(directory)) {
            return Applicability.no("segment directory " + directory + " not reachable here");
        }
        Path path = inboxPath();
        if (!Files.isRegularFile(path) || !Files.isWritable(path)) {
            return Applicability.no("no writable inbox " + path + " here (the context stopped, or this "
                + "process sees another file system at " + directory + ")");
        }
        return Applicability.yes("same host, segment directory " + directory);
    }

    public Path inboxPath() {
        return directory.resolve(inbox);
    }

    public String describe() {
        return inboxPath().toString();
    }
}
