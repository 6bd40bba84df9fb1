package io.polylink.example.udp.internal;

import io.polylink.spi.HostIdentity;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The udp descriptor's address: the host the context runs on, and its socket there, 38 bytes in
 * network byte order. A loopback address means something only on its own host, so the host
 * identity travels with it.
 *
 * <pre>
 *  0                          32              36      38
 *  | host identity (32 bytes) | IPv4 address  | port  |
 * </pre>
 *
 * @param host the host, as the core names it ({@link io.polylink.spi.MethodContext#host()})
 * @param socket where the context receives datagrams
 */
record UdpAddress(HostIdentity host, InetSocketAddress socket) {

    static final int BYTES = HostIdentity.BYTES + 6;

    byte[] encode() {
        return ByteBuffer.allocate(BYTES).put(host.bytes()).put(socket.getAddress().getAddress())
            .putShort((short) socket.getPort()).array();
    }

    /** @throws IllegalArgumentException if the bytes are not a udp address */
    static UdpAddress decode(byte[] address) {
        if (address.length != BYTES) {
            throw new IllegalArgumentException("a udp address has " + BYTES + " bytes (host, IPv4 and port), not "
                + address.length);
        }
        try {
            Inet4Address ip = (Inet4Address) Inet4Address.getByAddress(
                Arrays.copyOfRange(address, HostIdentity.BYTES, HostIdentity.BYTES + 4));
            int port = (address[BYTES - 2] & 0xff) << 8 | address[BYTES - 1] & 0xff;
            return new UdpAddress(HostIdentity.fromBytes(Arrays.copyOf(address, HostIdentity.BYTES)),
                new InetSocketAddress(ip, port));
        } catch (UnknownHostException impossible) {
            throw new IllegalArgumentException(impossible); // four bytes are always an address
        }
    }

    /** @return the socket, as {@code 127.0.0.1:8000/udp} */
    String describe() {
        return socket.getAddress().getHostAddress() + ":" + socket.getPort() + "/udp";
    }
}
