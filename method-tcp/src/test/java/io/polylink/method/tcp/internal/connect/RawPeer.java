package io.polylink.method.tcp.internal.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.polylink.ContextId;
import io.polylink.LinkException;
import io.polylink.method.tcp.internal.TcpMethod;
import io.polylink.method.tcp.internal.address.TcpAddress;
import io.polylink.method.tcp.internal.auth.PreSharedKey;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The handshake spoken by hand over a blocking socket, either side: what a test dials a method
 * with, or answers its dials with, including what no real peer would send.
 */
public final class RawPeer {

    static final int TIMEOUT_MS = 10_000;
    private static final SecureRandom RANDOM = new SecureRandom();

    private RawPeer() {}

    /** @return a socket connected to {@code at}, with the read timeout set */
    static Socket connect(InetSocketAddress at) throws IOException {
        Socket raw = new Socket();
        try {
            raw.connect(at, TIMEOUT_MS);
            raw.setSoTimeout(TIMEOUT_MS);
        } catch (IOException e) {
            raw.close();
            throw e;
        }
        return raw;
    }

    static byte[] nonce() {
        byte[] nonce = new byte[Handshake.NONCE_LENGTH];
        RANDOM.nextBytes(nonce);
        return nonce;
    }

    /** @return a hello from {@code from} to {@code to} asking for these timers, keyed if {@code key} is given */
    static ByteBuffer hello(ContextId from, ContextId to, int heartbeatMs, int failureMs, PreSharedKey key) {
        return Handshake.hello(key != null, from, to, 0, heartbeatMs, failureMs, nonce());
    }

    /**
     * Dials as {@code from}: the hello, with a key the proof the acceptor's challenge asks for.
     *
     * @return the acceptor's answer
     */
    static Handshake.Welcome dial(Socket raw, ContextId from, ContextId to, int heartbeatMs, int failureMs,
                                  PreSharedKey key) throws IOException {
        ByteBuffer hello = hello(from, to, heartbeatMs, failureMs, key);
        raw.getOutputStream().write(hello.array());
        InputStream in = raw.getInputStream();
        byte[] head = in.readNBytes(Handshake.HEAD_LENGTH);
        if (key != null && head.length == Handshake.HEAD_LENGTH && head[5] == Handshake.KIND_CHALLENGE) {
            ByteBuffer challenge = ByteBuffer.allocate(Handshake.CHALLENGE_LENGTH).put(head)
                .put(in.readNBytes(Handshake.CHALLENGE_LENGTH - head.length)).flip();
            Handshake.Challenge c = Handshake.readChallenge(challenge, 0);
            ByteBuffer transcript = Handshake.transcript(hello, c.from(), c.nonce());
            raw.getOutputStream().write(Handshake.proof(key.proof(PreSharedKey.Role.DIALLER, transcript)).array());
            head = in.readNBytes(Handshake.HEAD_LENGTH);
        }
        return welcome(head, in);
    }

    /** @return a socket that completed the handshake with the method at {@code at} as {@code from} */
    static Socket handshaken(InetSocketAddress at, ContextId from, ContextId to) throws IOException {
        return handshaken(at, from, to, 250, 1000);
    }

    /**
     * @return a socket that completed the handshake, without a key, with the method at {@code at}
     *     as {@code from}, asking for these timers
     */
    public static Socket handshaken(InetSocketAddress at, ContextId from, ContextId to, int heartbeatMs, int failureMs)
            throws IOException {
        Socket raw = connect(at);
        try {
            assertEquals(Handshake.Status.ACCEPTED, dial(raw, from, to, heartbeatMs, failureMs, null).status());
        } catch (IOException | RuntimeException | Error e) {
            raw.close();
            throw e;
        }
        return raw;
    }

    /** @return the welcome that follows {@code head}, which must be one */
    static Handshake.Welcome welcome(byte[] head, InputStream in) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(Handshake.WELCOME_LENGTH).put(head)
            .put(in.readNBytes(Handshake.WELCOME_LENGTH - head.length)).flip();
        assertEquals(Handshake.WELCOME_LENGTH, bytes.remaining(), "the answer ended early");
        assertNull(Handshake.checkMagic(bytes, 0), "the answer is not a handshake message");
        Handshake.Welcome w = Handshake.readWelcome(bytes, 0);
        assertNotNull(w, "the answer is not a welcome");
        return w;
    }

    /** @return the welcome the socket reads next */
    static Handshake.Welcome welcome(Socket raw) throws IOException {
        return welcome(new byte[0], raw.getInputStream());
    }

    /** @return the tcp address of a raw acceptor listening on loopback */
    static byte[] addressOf(ServerSocket acceptor) {
        return TcpAddress.encode(List.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), acceptor.getLocalPort())));
    }

    /**
     * Has {@code method} dial context {@code peer} at a raw acceptor, on another thread.
     *
     * @return the connection, or the {@link LinkException} the dial ended with
     */
    static CompletableFuture<Object> dialTo(TcpMethod method, ContextId peer, ServerSocket acceptor) {
        byte[] address = addressOf(acceptor);
        return CompletableFuture.supplyAsync(() -> {
            try {
                return method.connect(peer, address, Map.of());
            } catch (LinkException e) {
                return e;
            }
        });
    }

    /** @return the heartbeats read until the other side closed; fails if it stays open past the read timeout */
    static int heartbeatsUntilClosed(Socket raw) throws IOException {
        DataInputStream in = new DataInputStream(raw.getInputStream());
        int beats = 0;
        try {
            while (true) {
                assertEquals(0, in.readInt(), "an idle connection sends only heartbeats");
                beats++;
            }
        } catch (EOFException | SocketException closed) {
            return beats;
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the connection was not closed", e);
        }
    }

    /** As an acceptor without a key: reads the method's hello and answers {@code status} as {@code self}. */
    static Handshake.Hello answer(Socket accepted, ContextId self, Handshake.Status status) throws IOException {
        ByteBuffer hello = ByteBuffer.wrap(new DataInputStream(accepted.getInputStream())
            .readNBytes(Handshake.HELLO_LENGTH));
        accepted.getOutputStream().write(Handshake.welcome(status, self, 250, 1000).array());
        return Handshake.readHello(hello, 0);
    }
}
