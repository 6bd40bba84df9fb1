package io.polylink.method.tcp.internal.connect;

import io.polylink.ContextId;
import io.polylink.method.tcp.internal.auth.PreSharedKey;
import io.polylink.method.tcp.internal.connection.TcpConnection;
import io.polylink.method.tcp.internal.loop.IoHandler;
import io.polylink.method.tcp.internal.loop.IoLoop;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;

/**
 * An accepted socket until its handshake is answered, on the acceptor's thread: the hello, and
 * with a key the challenge and the dialler's proof, then the acceptor's decision
 * ({@link Acceptor#admit}). A stranger is turned away as soon as its first 4 bytes show it is not
 * Polylink; a slow one when the connect timeout runs out.
 *
 * <p>A dialler claiming a context that has a live connection of its kind here waits while that
 * connection is probed ({@link #probe}): heartbeats written to it make a socket whose other end
 * is gone fail, and then the dialler is admitted again. One still open when the probing ends is
 * alive as far as this side can tell, and the dialler is refused.
 */
final class InboundHandshake implements IoHandler {

    private static final long FIRST_PROBE_GAP_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final Acceptor acceptor;
    private final SocketChannel channel;
    private final long deadline;
    private final InetSocketAddress remote;
    private SelectionKey key;
    private ByteBuffer in = ByteBuffer.allocate(Handshake.HELLO_LENGTH);
    private Handshake.Hello hello;
    /** With a key, once the challenge went: what the dialler's proof must cover. */
    private ByteBuffer transcript;
    /** While probing: the live connection the dialler's claim meets, and the probes' schedule. */
    private TcpConnection probed;
    private long probeStart;
    private long probeEnd;
    private long nextProbe;
    private long probeGap;

    InboundHandshake(Acceptor acceptor, SocketChannel channel, InetSocketAddress remote, long deadline) {
        this.acceptor = acceptor;
        this.channel = channel;
        this.remote = remote;
        this.deadline = deadline;
    }

    SocketChannel channel() {
        return channel;
    }

    SelectionKey key() {
        return key;
    }

    /** @return the dialler's socket address */
    InetSocketAddress remote() {
        return remote;
    }

    /** @return the dialler's address, whose handshakes and connections are counted */
    InetAddress source() {
        return remote.getAddress();
    }

    /** @return the dialler's hello, once read */
    Handshake.Hello hello() {
        return hello;
    }

    @Override
    public boolean ready(SelectionKey key) {
        this.key = key;
        try {
            read();
        } catch (IOException e) {
            refuse(e.getMessage());
        }
        return true;
    }

    @Override
    public void failed(Throwable cause) {
        refuse("unexpected " + cause);
    }

    private void read() throws IOException {
        if (channel.read(in) < 0) {
            refuse("closed before completing the handshake");
            return;
        }
        if (in.position() >= 4) {
            String stranger = Handshake.checkMagic(in, 0);
            if (stranger != null) {
                refuse(stranger);
                return;
            }
        }
        if (in.position() >= 5 && Handshake.version(in, 0) != Handshake.VERSION) {
            answer(Handshake.Status.BAD_VERSION);
            refuse("speaks tcp protocol version " + Handshake.version(in, 0) + ", this context "
                + Handshake.VERSION + "; upgrade the older side");
            return;
        }
        if (in.hasRemaining()) {
            return;
        }
        if (transcript == null) {
            helloRead();
        } else {
            proofRead();
        }
    }

    private void helloRead() throws IOException {
        hello = Handshake.readHello(in, 0);
        if (hello == null) {
            refuse("sent a handshake that is not a hello");
            return;
        }
        ContextId self = acceptor.self();
        PreSharedKey key = acceptor.key();
        if (!hello.to().equals(self)) {
            answer(Handshake.Status.WRONG_PEER);
            refuse("it wants context " + hello.to() + ", this is " + self);
        } else if (hello.from().equals(self)) {
            answer(Handshake.Status.IN_USE);
            refuse("it claims to be this context, " + self);
        } else if (key == null && hello.keyed()) {
            answer(Handshake.Status.NO_KEY);
            refuse("context " + hello.from() + " holds a tcp pre-shared key and this node none; a node with a key "
                + "connects only with nodes that hold the same (psk)");
        } else if (key != null && !hello.keyed()) {
            answer(Handshake.Status.KEY_REQUIRED);
            refuse("it claims context " + hello.from() + " without a tcp pre-shared key, which this node requires (psk)");
        } else if (key == null) {
            acceptor.admit(this);
        } else {
            byte[] nonce = acceptor.nonce();
            transcript = Handshake.transcript(in.flip(), self, nonce);
            acceptor.answer(channel, Handshake.challenge(self, nonce, key.proof(PreSharedKey.Role.ACCEPTOR, transcript)));
            in = ByteBuffer.allocate(Handshake.PROOF_LENGTH);
        }
    }

    private void proofRead() throws IOException {
        byte[] proof = Handshake.readProof(in, 0);
        if (proof == null) {
            refuse("sent something other than its proof after the challenge");
        } else if (!acceptor.key().verify(PreSharedKey.Role.DIALLER, transcript, proof)) {
            answer(Handshake.Status.AUTH_FAILED);
            refuse("it claims context " + hello.from() + " but did not prove it holds this node's tcp pre-shared key");
        } else {
            acceptor.admit(this);
        }
    }

    /**
     * The dialler claims a context with a live connection of its kind here: reads nothing more
     * from it while that connection is probed until {@code end} (bytes it sends meanwhile are the
     * connection's, if it is admitted), then admits it again once the connection fails or closes.
     */
    void probe(TcpConnection live, long now) {
        probed = live;
        probeStart = now;
        probeEnd = Math.min(deadline, now + acceptor.probeNanos());
        nextProbe = now;
        probeGap = FIRST_PROBE_GAP_NANOS;
        key.interestOps(0);
    }

    /**
     * On the acceptor's tick: the next probe, or the end of the handshake's time.
     *
     * @return nanoseconds until this handshake needs the tick again; {@link IoLoop#NO_TIMERS} once it ended
     */
    long tick(long now) {
        if (probed == null) {
            if (now - deadline > 0) {
                refuse("handshake not completed within " + acceptor.connectTimeoutMs() + " ms");
                return IoLoop.NO_TIMERS;
            }
            return deadline - now;
        }
        if (now - nextProbe >= 0 && probed.isOpen()) {
            probed.probe();
            nextProbe = now + probeGap;
            probeGap *= 2;
        }
        if (!probed.isOpen()) {
            probed = null;
            try {
                acceptor.admit(this);
            } catch (IOException e) {
                refuse(e.getMessage());
            }
            return 0;
        }
        if (now - probeEnd >= 0) {
            answer(Handshake.Status.IN_USE);
            refuse("context " + hello.from() + " has a live connection here (" + probed + ") that did not fail "
                + "through " + TimeUnit.NANOSECONDS.toMillis(now - probeStart) + " ms of probes; a new dial takes a "
                + "connected context's place only once its old connection is closed or silent");
            return IoLoop.NO_TIMERS;
        }
        return Math.min(nextProbe, probeEnd) - now;
    }

    /** Answers {@code status}, if the socket takes it; the handshake is refused after anyway. */
    void answer(Handshake.Status status) {
        try {
            acceptor.answer(channel, Handshake.welcome(status, acceptor.self(), 0, 0));
        } catch (IOException e) {
            // the dialler is gone, or its socket full: it learns of the refusal from the close
        }
    }

    /** Closes the socket with one log line naming the remote address and the reason. */
    void refuse(String why) {
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

    @Override
    public String toString() {
        return "tcp handshake with " + remote;
    }
}
