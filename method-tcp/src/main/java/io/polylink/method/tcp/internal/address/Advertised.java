package io.polylink.method.tcp.internal.address;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Which addresses go into the tcp descriptor. */
public final class Advertised {

    private Advertised() {}

    /**
     * @param advertise the configured hosts, in order; empty to derive them
     * @param bound where the server socket listens
     * @return the configured hosts; else, for a wildcard bind, every address of every interface
     *     that is up (loopback last, link-local IPv6 left out, IPv4 only for an IPv4 wildcard);
     *     else the bound address
     */
    public static List<InetSocketAddress> addresses(List<String> advertise, InetSocketAddress bound) throws IOException {
        int port = bound.getPort();
        List<InetSocketAddress> out = new ArrayList<>();
        if (!advertise.isEmpty()) {
            for (String host : advertise) {
                out.add(new InetSocketAddress(InetAddress.getByName(host), port));
            }
        } else if (bound.getAddress().isAnyLocalAddress()) {
            boolean v4Only = bound.getAddress() instanceof Inet4Address;
            List<InetSocketAddress> loopback = new ArrayList<>();
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!nic.isUp()) {
                    continue;
                }
                for (InetAddress a : Collections.list(nic.getInetAddresses())) {
                    if (a.isLinkLocalAddress() || v4Only && !(a instanceof Inet4Address)) {
                        continue;
                    }
                    (a.isLoopbackAddress() ? loopback : out).add(new InetSocketAddress(a, port));
                }
            }
            out.addAll(loopback);
        } else {
            out.add(bound);
        }
        return out.subList(0, Math.min(out.size(), TcpAddress.MAX_ENTRIES));
    }
}
