package io.polylink.method.tcp.internal.address;

import io.polylink.MalformedMessageException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The tcp descriptor address: the socket addresses a context listens on, in the order a peer
 * should try them.
 *
 * <pre>
 *   address := count:u8 (length:u8 (4 or 16) ip:bytes port:u16){count}
 * </pre>
 */
public final class TcpAddress {

    /** The most addresses a descriptor lists. */
    static final int MAX_ENTRIES = 16;

    private TcpAddress() {}

    /** @throws IllegalArgumentException unless there are 1 to {@value #MAX_ENTRIES} addresses */
    public static byte[] encode(List<InetSocketAddress> addresses) {
        if (addresses.isEmpty() || addresses.size() > MAX_ENTRIES) {
            throw new IllegalArgumentException("a tcp descriptor lists 1 to " + MAX_ENTRIES
                + " addresses, not " + addresses.size());
        }
        ByteBuffer out = ByteBuffer.allocate(1 + addresses.size() * 19);
        out.put((byte) addresses.size());
        for (InetSocketAddress a : addresses) {
            byte[] ip = a.getAddress().getAddress();
            out.put((byte) ip.length).put(ip).putShort((short) a.getPort());
        }
        byte[] bytes = new byte[out.position()];
        out.flip().get(bytes);
        return bytes;
    }

    /** @throws MalformedMessageException if the bytes are not a tcp address */
    public static List<InetSocketAddress> decode(byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        try {
            int count = in.get() & 0xFF;
            if (count == 0 || count > MAX_ENTRIES) {
                throw new MalformedMessageException("tcp address lists " + count + " entries, expected 1 to "
                    + MAX_ENTRIES);
            }
            List<InetSocketAddress> out = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                int length = in.get() & 0xFF;
                if (length != 4 && length != 16) {
                    throw new MalformedMessageException("tcp address entry " + (i + 1) + " has an IP of "
                        + length + " bytes");
                }
                byte[] ip = new byte[length];
                in.get(ip);
                out.add(new InetSocketAddress(InetAddress.getByAddress(ip), in.getShort() & 0xFFFF));
            }
            if (in.hasRemaining()) {
                throw new MalformedMessageException("tcp address has " + in.remaining() + " trailing bytes");
            }
            return out;
        } catch (BufferUnderflowException e) {
            throw new MalformedMessageException("truncated tcp address of " + bytes.length + " bytes", e);
        } catch (UnknownHostException e) {
            throw new MalformedMessageException("tcp address with a bad IP: " + e.getMessage(), e);
        }
    }

    /** @return the addresses as a peer would read them, comma-separated */
    public static String describe(List<InetSocketAddress> addresses) {
        return addresses.stream().map(TcpAddress::describe).collect(Collectors.joining(", "));
    }

    /** @return {@code host:port}, an IPv6 host in brackets and in its short form */
    public static String describe(InetSocketAddress a) {
        String host = a.getAddress().getHostAddress();
        return (host.indexOf(':') >= 0 ? "[" + shortIpv6(host) + "]" : host) + ":" + a.getPort();
    }

    /** "0:0:0:0:0:0:0:1" as "::1": the longest run of two or more zero groups becomes "::" (RFC 5952). */
    static String shortIpv6(String full) {
        String[] groups = full.split(":", -1);
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < groups.length; ) {
            int j = i;
            while (j < groups.length && groups[j].equals("0")) {
                j++;
            }
            if (j - i > bestLength) {
                bestStart = i;
                bestLength = j - i;
            }
            i = j == i ? i + 1 : j;
        }
        if (bestStart < 0) {
            return full;
        }
        String head = String.join(":", Arrays.copyOfRange(groups, 0, bestStart));
        String tail = String.join(":", Arrays.copyOfRange(groups, bestStart + bestLength, groups.length));
        return head + "::" + tail;
    }
}
