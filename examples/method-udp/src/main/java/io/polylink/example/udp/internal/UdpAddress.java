package io.polylink.example.udp.internal;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;

/**
 * The udp descriptor's address: an IPv4 address and a port, 6 bytes in network byte order.
 *
 * <pre>
 *  0               4       6
 *  | IPv4 address  | port  |
 * </pre>
 */
final class UdpAddress {

    static final int BYTES = 6;

    private UdpAddress() {}

    static byte[] encode(InetSocketAddress address) {
        return ByteBuffer.allocate(BYTES).put(address.getAddress().getAddress())
            .putShort((short) address.getPort()).array();
    }

    /** @throws IllegalArgumentException if the bytes are not a udp address */
    static InetSocketAddress decode(byte[] address) {
        if (address.length != BYTES) {
            throw new IllegalArgumentException("a udp address has " + BYTES + " bytes (IPv4 and port), not "
                + address.length);
        }
        try {
            InetAddress ip = Inet4Address.getByAddress(java.util.Arrays.copyOf(address, 4));
            return new InetSocketAddress(ip, ((address[4] & 0xff) << 8) | (address[5] & 0xff));
        } catch (UnknownHostException impossible) {
            throw new IllegalArgumentException(impossible);
        }
    }

    static String describe(byte[] address) {
        try {
            InetSocketAddress a = decode(address);
            return a.getAddress().getHostAddress() + ":" + a.getPort() + "/udp";
        } catch (IllegalArgumentException e) {
            return "malformed udp address (" + address.length + " bytes)";
        }
    }
}
