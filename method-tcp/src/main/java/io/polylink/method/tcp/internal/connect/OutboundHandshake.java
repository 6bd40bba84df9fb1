package io.polylink.method.tcp.internal.connect;

import io.polylink.ContextId;
import io.polylink.LinkException;
import io.polylink.method.tcp.internal.auth.PreSharedKey;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * The dialler's side of the handshake, on the dialling thread over a blocking socket whose read
 * timeout bounds each wait: the hello, with a key the acceptor's proof checked and this side's
 * sent, and the acceptor's answer. A node with a key accepts only an acceptor that proves it
 * holds the same before anything else.
 */
final class OutboundHandshake {

    private final SocketChannel channel;
    private final InputStream in;
    private final String where;

    /** @param channel connected and blocking, with its read timeout set */
    OutboundHandshake(SocketChannel channel, String where) throws IOException {
        this.channel = channel;
        this.in = channel.socket().getInputStream();
        this.where = where;
    }

    /**
     * @param hello this side's hello, as {@link Handshake#hello} made it with {@code key != null}
     * @param peer the context this side wants
     * @param key this side's key; {@code null} for none
     * @return the acceptor's answer
     * @throws LinkException naming the address, if the acceptor is not the peer this side wants,
     *     does not prove it holds the key, or does not speak this handshake
     * @throws IOException as the socket's reads and writes do
     */
    Handshake.Welcome exchange(ByteBuffer hello, ContextId peer, PreSharedKey key) throws IOException {
        write(hello.duplicate());
        ByteBuffer message = read(Handshake.HEAD_LENGTH);
        boolean proved = false;
        if (Handshake.kind(message, 0) == Handshake.KIND_CHALLENGE) {
            if (key == null) {
                throw new LinkException("peer at " + where + " asks for proof of a tcp pre-shared key, and this node "
                    + "has none; configure the same psk on both");
            }
            Handshake.Challenge challenge = Handshake.readChallenge(rest(message, Handshake.CHALLENGE_LENGTH), 0);
            if (!challenge.from().equals(peer)) {
                throw Dialler.wrongPeer(where, challenge.from(), peer);
            }
            ByteBuffer transcript = Handshake.transcript(hello, challenge.from(), challenge.nonce());
            if (!key.verify(PreSharedKey.Role.ACCEPTOR, transcript, challenge.proof())) {
                throw new LinkException("peer at " + where + " did not prove it holds this node's tcp pre-shared key: "
                    + "the keys differ, or something other than context " + peer + " answers there");
            }
            proved = true;
            write(Handshake.proof(key.proof(PreSharedKey.Role.DIALLER, transcript)));
            message = read(Handshake.HEAD_LENGTH);
        }
        Handshake.Welcome welcome = Handshake.kind(message, 0) == Handshake.KIND_WELCOME
            ? Handshake.readWelcome(rest(message, Handshake.WELCOME_LENGTH), 0) : null;
        if (welcome == null) {
            throw new LinkException(where + " answered the handshake with garbage");
        }
        if (key != null && !proved && welcome.status() == Handshake.Status.ACCEPTED) {
            throw new LinkException("peer at " + where + " accepted without proving it holds this node's tcp "
                + "pre-shared key; a node with a key connects only with nodes that hold the same");
        }
        return welcome;
    }

    private void write(ByteBuffer message) throws IOException {
        while (message.hasRemaining()) {
            channel.write(message);
        }
    }

    /** @return the first {@code length} bytes the acceptor sends, as a handshake message head it checked */
    private ByteBuffer read(int length) throws IOException {
        ByteBuffer head = ByteBuffer.wrap(in.readNBytes(length));
        if (head.remaining() < 4 || Handshake.checkMagic(head, 0) != null) {
            throw new LinkException(where + " is " + (head.remaining() < 4 ? "not answering the handshake"
                : Handshake.checkMagic(head, 0)));
        }
        if (head.remaining() >= 5 && Handshake.version(head, 0) != Handshake.VERSION) {
            throw new LinkException("peer at " + where + " speaks tcp protocol version " + Handshake.version(head, 0)
                + ", this context " + Handshake.VERSION + "; upgrade the older side");
        }
        if (head.remaining() < length) {
            throw new LinkException(where + " answered the handshake with garbage");
        }
        return head;
    }

    /** @return {@code head} and the rest of its message, {@code length} bytes in all */
    private ByteBuffer rest(ByteBuffer head, int length) throws IOException {
        byte[] rest = in.readNBytes(length - head.capacity());
        if (rest.length < length - head.capacity()) {
            throw new LinkException(where + " answered the handshake with garbage");
        }
        return ByteBuffer.allocate(length).put(head.duplicate().clear()).put(rest).flip();
    }
}
