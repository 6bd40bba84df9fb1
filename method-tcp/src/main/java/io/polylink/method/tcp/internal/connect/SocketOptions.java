package io.polylink.method.tcp.internal.connect;

import io.polylink.method.tcp.internal.config.TcpSettings;
import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;

/** The options a socket takes from its link's parameters, dialled or accepted alike. */
final class SocketOptions {

    private SocketOptions() {}

    static void apply(SocketChannel channel, TcpSettings.Link link) throws IOException {
        channel.setOption(StandardSocketOptions.TCP_NODELAY, link.tcpNoDelay());
        if (link.sendBuffer() > 0) {
            channel.setOption(StandardSocketOptions.SO_SNDBUF, link.sendBuffer());
        }
        if (link.receiveBuffer() > 0) {
            channel.setOption(StandardSocketOptions.SO_RCVBUF, link.receiveBuffer());
        }
    }
}
