package io.polylink.method.tcp.internal.connect;

import io.polylink.method.tcp.internal.loop.IoHandler;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * An accepted socket until its hello is read and answered, on the acceptor's thread. A stranger is
 * turned away as soon as its first 4 bytes show it is not Polylink; a slow one when the connect
 * timeout runs out.
 */
final class InboundHandshake implements IoHandler {

    private final Acceptor acceptor;
    private final SocketChannel channel;
    private final ByteBuffer hello = ByteBuffer.allocate(Handshake.HELLO_LENGTH);
    private final long deadline;
    private final String remote;

    InboundHandshake(Acceptor acceptor, SocketChannel channel, long deadline) throws IOException {
        this.acceptor = acceptor;
        this.channel = channel;
        this.deadline = deadline;
        this.remote = String.valueOf(channel.getRemoteAddress());
    }

    long deadline() {
        return deadline;
    }

    @Override
    public boolean ready(SelectionKey key) {
        read(key);
        return true;
    }

    private void read(SelectionKey key) {
        try {
            if (channel.read(hello) < 0) {
                refuse(key, "closed before completing the handshake");
                return;
            }
            if (hello.position() >= 4) {
                String stranger = Handshake.checkMagic(hello, 0);
                if (stranger != null) {
                    refuse(key, stranger);
                    return;
                }
            }
            if (hello.position() >= 5 && Handshake.version(hello, 0) != Handshake.VERSION) {
                acceptor.answer(channel, Handshake.Status.BAD_VERSION);
                refuse(key, "speaks tcp protocol version " + Handshake.version(hello, 0) + ", this context "
                    + Handshake.VERSION + "; upgrade the older side");
                return;
            }
            if (hello.hasRemaining()) {
                return;
            }
            Handshake.Hello h = Handshake.readHello(hello, 0);
            if (h == null) {
                refuse(key, "sent a handshake that is not a hello");
                return;
            }
            acceptor.accepted(channel, key, h, this);
        } catch (IOException e) {
            refuse(key, e.getMessage());
        }
    }

    /** Closes the socket with one log line naming the remote address and the reason. */
    void refuse(SelectionKey key, String why) {
        if (key != null) {
            key.cancel();
        }
        acceptor.refused(this, "refused tcp connection from " + remote + ": " + why);
        try {
            channel.close();
        } catch (IOException ignored) {
            // refused either way
        }
    }
}
