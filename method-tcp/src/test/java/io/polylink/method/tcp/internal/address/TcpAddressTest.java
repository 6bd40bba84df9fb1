package io.polylink.method.tcp.internal.address;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

class TcpAddressTest {

    @Test
    void ipv6AddressesAreNamedInTheirShortForm() {
        assertEquals("[::1]:7000", TcpAddress.describe(new InetSocketAddress("::1", 7000)));
        assertEquals("127.0.0.1:7000", TcpAddress.describe(new InetSocketAddress("127.0.0.1", 7000)));
        assertEquals("::", TcpAddress.shortIpv6("0:0:0:0:0:0:0:0"));
        assertEquals("1::", TcpAddress.shortIpv6("1:0:0:0:0:0:0:0"));
        assertEquals("fe80::1:2:3:4", TcpAddress.shortIpv6("fe80:0:0:0:1:2:3:4"));
        assertEquals("2001:db8::1:0:0:1", TcpAddress.shortIpv6("2001:db8:0:0:1:0:0:1"), "the first of two longest runs");
        assertEquals("2001:db8:0:1:1:1:1:1", TcpAddress.shortIpv6("2001:db8:0:1:1:1:1:1"), "one zero group stays");
    }
}
