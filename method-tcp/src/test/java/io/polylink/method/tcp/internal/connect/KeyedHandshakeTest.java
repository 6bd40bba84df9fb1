package io.polylink.method.tcp.internal.connect;

import static io.polylink.method.tcp.internal.TcpContexts.linked;
import static io.polylink.method.tcp.internal.TcpContexts.listening;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Context;
import io.polylink.ContextId;
import io.polylink.LinkException;
import io.polylink.Startpoint;
import io.polylink.method.tcp.internal.TcpContexts;
import io.polylink.method.tcp.internal.auth.PreSharedKey;
import io.polylink.spi.InvalidSettingException;
import io.polylink.testkit.Await;
import io.polylink.testkit.LogCapture;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nodes with a pre-shared key: each side of a connection proves it holds the key before anything
 * else, so a stranger cannot claim a context's id, and a node with a key talks only to nodes with
 * the same.
 */
class KeyedHandshakeTest {

    private static final String KEY = Base64.getEncoder().encodeToString(bytes(32, 1));
    private static final String OTHER_KEY = Base64.getEncoder().encodeToString(bytes(32, 2));
    private static final PreSharedKey WRONG = PreSharedKey.read("test", OTHER_KEY, "");

    private final TcpContexts tcp = new TcpContexts();

    @AfterEach
    void close() {
        tcp.close();
    }

    private static byte[] bytes(int n, int seed) {
        byte[] out = new byte[n];
        for (int i = 0; i < n; i++) {
            out[i] = (byte) (i * 31 + seed);
        }
        return out;
    }

    private static Map<String, Object> keyed(String key, String... more) {
        Map<String, Object> settings = new HashMap<>(TcpContexts.LOOPBACK);
        settings.put("psk", key);
        for (int i = 0; i < more.length; i += 2) {
            settings.put(more[i], more[i + 1]);
        }
        return settings;
    }

    /**
     * A stranger claims a connected peer's id, without a key or with another: it is refused
     * before it proves anything, and the real peer's link goes on; a peer with the key connects.
     */
    @Test
    void anImpostorFailsTheChallengeWhileThePeerWithTheKeyConnects() throws Exception {
        Context b = tcp.open(keyed(KEY));
        Context a = tcp.open(keyed(KEY));
        List<Integer> seen = new CopyOnWriteArrayList<>();
        Startpoint fromA = linked(a, b, seen);
        try (LogCapture log = new LogCapture("io.polylink.method.tcp");
             Socket keyless = RawPeer.connect(listening(b));
             Socket otherKey = RawPeer.connect(listening(b))) {
            assertEquals(Handshake.Status.KEY_REQUIRED, RawPeer.dial(keyless, a.id(), b.id(), 250, 1000, null).status());
            assertEquals(Handshake.Status.AUTH_FAILED, RawPeer.dial(otherKey, a.id(), b.id(), 250, 1000, WRONG).status());
            Await.until(() -> log.lines().stream().filter(l -> l.matches("refused tcp connection from /127\\.0\\.0\\.1:"
                + "\\d+: it claims context " + a.id() + " (without a tcp pre-shared key, which this node requires "
                + "\\(psk\\)|but did not prove it holds this node's tcp pre-shared key)")).count() == 2,
                Duration.ofSeconds(5), () -> "no line names each refusal: " + log.lines());
        }
        fromA.send(1, a.allocateBuffer(4).putInt(2));
        Await.until(() -> seen.contains(2), Duration.ofSeconds(5), () -> "the real peer's link broke");
        assertEquals(1, tcp.method(0).connectionCount(), "b holds a connection besides a's");
        Context c = tcp.open(keyed(KEY));
        linked(c, b, new CopyOnWriteArrayList<>());
    }

    @Test
    void aNodeWithAKeyConnectsOnlyWithNodesHoldingTheSame() {
        tcp.open(keyed(KEY));
        tcp.open(keyed(""));
        tcp.open(keyed(OTHER_KEY));
        LinkException required = assertThrows(LinkException.class, () -> tcp.connection(1, 0));
        assertTrue(required.getMessage().contains("refused the connection: it requires a tcp pre-shared key (psk), and "
            + "this node has none"), required.getMessage());
        LinkException none = assertThrows(LinkException.class, () -> tcp.connection(0, 1));
        assertTrue(none.getMessage().contains("refused the connection: it has no tcp pre-shared key, and this node has "
            + "one"), none.getMessage());
        LinkException differ = assertThrows(LinkException.class, () -> tcp.connection(2, 0));
        assertTrue(differ.getMessage().contains("did not prove it holds this node's tcp pre-shared key: the keys differ"),
            differ.getMessage());
    }

    /** Something at a keyed node's peer's address answers as if it had no key: the dial fails, nothing is sent. */
    @Test
    void aKeyedDiallerRefusesAnAcceptorThatAcceptsWithoutProof() throws Exception {
        tcp.open(keyed(KEY));
        ContextId peer = ContextId.random();
        try (ServerSocket acceptor = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Object> dialled = RawPeer.dialTo(tcp.method(0), peer, acceptor);
            try (Socket accepted = acceptor.accept()) {
                accepted.setSoTimeout(10_000);
                assertTrue(RawPeer.answer(accepted, peer, Handshake.Status.ACCEPTED).keyed(), "the hello says it has a key");
                Object result = dialled.get(10, TimeUnit.SECONDS);
                assertTrue(result instanceof LinkException e && e.getMessage().contains("accepted without proving it holds "
                    + "this node's tcp pre-shared key"), String.valueOf(result));
                assertEquals(-1, accepted.getInputStream().read(), "the dialler sent something, or kept the socket");
            }
        }
    }

    /** An acceptor whose challenge carries a proof made with another key: the dialler sends no proof of its own. */
    @Test
    void aKeyedDiallerSendsNoProofToAnAcceptorThatCannotProveItself() throws Exception {
        tcp.open(keyed(KEY));
        ContextId peer = ContextId.random();
        try (ServerSocket acceptor = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Object> dialled = RawPeer.dialTo(tcp.method(0), peer, acceptor);
            try (Socket accepted = acceptor.accept()) {
                accepted.setSoTimeout(10_000);
                ByteBuffer hello = ByteBuffer.wrap(accepted.getInputStream().readNBytes(Handshake.HELLO_LENGTH));
                byte[] nonce = RawPeer.nonce();
                ByteBuffer transcript = Handshake.transcript(hello, peer, nonce);
                accepted.getOutputStream().write(Handshake.challenge(peer, nonce,
                    WRONG.proof(PreSharedKey.Role.ACCEPTOR, transcript)).array());
                Object result = dialled.get(10, TimeUnit.SECONDS);
                assertTrue(result instanceof LinkException e && e.getMessage().contains("did not prove it holds this "
                    + "node's tcp pre-shared key"), String.valueOf(result));
                assertEquals(-1, accepted.getInputStream().read(), "the dialler sent its proof to an unproven acceptor");
            }
        }
    }

    @Test
    void aKeyIsReadFromItsFileAndABadOneIsRefusedWithoutShowingIt(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("tcp.psk");
        Files.writeString(file, KEY + "\n");
        Context fromFile = tcp.open(Map.of("bindAddress", "127.0.0.1", "pskFile", file.toString()));
        Context withKey = tcp.open(keyed(KEY));
        linked(fromFile, withKey, new CopyOnWriteArrayList<>());

        String shortKey = Base64.getEncoder().encodeToString(bytes(16, 3));
        InvalidSettingException tooShort = assertThrows(InvalidSettingException.class,
            () -> PreSharedKey.read("io.polylink.method.tcp", shortKey, ""));
        assertEquals("io.polylink.method.tcp: psk='(a key of 16 bytes, not shown)' is not at least 32 random bytes in "
            + "base64, e.g. from 'head -c 32 /dev/urandom | base64'", tooShort.getMessage());
        InvalidSettingException notBase64 = assertThrows(InvalidSettingException.class,
            () -> PreSharedKey.read("io.polylink.method.tcp", "secret!secret", ""));
        assertFalse(notBase64.getMessage().contains("secret"), notBase64.getMessage());
        assertThrows(InvalidSettingException.class, () -> PreSharedKey.read("io.polylink.method.tcp", KEY,
            file.toString()));
        assertEquals("pre-shared key of 32 bytes", PreSharedKey.read("t", KEY, "").toString());
    }

    /** A proof is bound to its transcript: changing any byte of the hello or the acceptor's nonce breaks it. */
    @Test
    void aProofCoversEveryByteOfTheTranscript() {
        PreSharedKey key = PreSharedKey.read("t", KEY, "");
        ByteBuffer hello = RawPeer.hello(ContextId.random(), ContextId.random(), 250, 1000, key);
        ContextId acceptor = ContextId.random();
        byte[] nonce = RawPeer.nonce();
        ByteBuffer transcript = Handshake.transcript(hello, acceptor, nonce);
        byte[] proof = key.proof(PreSharedKey.Role.DIALLER, transcript);
        assertTrue(key.verify(PreSharedKey.Role.DIALLER, transcript, proof));
        assertFalse(key.verify(PreSharedKey.Role.ACCEPTOR, transcript, proof), "one role's proof passed as the other's");
        for (int i = 0; i < transcript.remaining(); i++) {
            ByteBuffer changed = ByteBuffer.allocate(transcript.remaining()).put(transcript.duplicate()).flip();
            changed.put(i, (byte) (changed.get(i) ^ 1));
            assertFalse(key.verify(PreSharedKey.Role.DIALLER, changed, proof), "byte " + i + " is not covered");
        }
    }
}
