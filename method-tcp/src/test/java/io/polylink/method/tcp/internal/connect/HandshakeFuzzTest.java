package io.polylink.method.tcp.internal.connect;

import static io.polylink.method.tcp.internal.TcpContexts.linked;
import static io.polylink.method.tcp.internal.TcpContexts.listening;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.polylink.Context;
import io.polylink.ContextId;
import io.polylink.method.tcp.internal.TcpContexts;
import io.polylink.method.tcp.internal.TcpMethod;
import io.polylink.method.tcp.internal.auth.PreSharedKey;
import io.polylink.spi.Connection;
import io.polylink.testkit.Await;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Fuzzes what a dialler can send an acceptor: hellos claiming any context's id (a connected peer's,
 * the acceptor's own, another's, nobody's), asking for any timers, with or without a key, cut
 * anywhere and with bytes changed; proofs right, wrong or garbled; and after an accepted welcome,
 * any frame stream. Whatever comes, the acceptor answers or closes, its threads go on, and the
 * connection the real peer holds is never taken from it.
 *
 * <p>Without {@code JAZZER_FUZZ} it replays the inputs in
 * {@code src/test/resources/io/polylink/method/tcp/internal/connect/HandshakeFuzzTestInputs/}; the
 * build also fuzzes it briefly (see method-tcp's pom).
 */
class HandshakeFuzzTest {

    private static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);
    private static final PreSharedKey RIGHT = PreSharedKey.read("test", KEY, "");
    private static final PreSharedKey WRONG = PreSharedKey.read("test", Base64.getEncoder().encodeToString(
        new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27,
            28, 29, 30, 31, 32}), "");
    private static final int ANSWER_TIMEOUT_MS = 2000;

    private TcpContexts tcp;
    /** Acceptors without a key and with one, each with a peer whose connection the fuzzer claims. */
    private Context plain;
    private Context keyed;
    private Context plainPeer;
    private Context keyedPeer;
    private Connection plainLive;
    private Connection keyedLive;
    private int threads;

    @BeforeEach
    void openContexts() {
        tcp = new TcpContexts();
        // Acceptors with shorter handshakes, so a claim on a live connection is probed for half a
        // second, not a whole one, yet the keyed handshakes of a busy build still finish in time;
        // long failure timeouts, so a fuzzing run starving the heartbeats closes no live peer.
        plain = tcp.open(settings(null, "1000"));
        keyed = tcp.open(settings(KEY, "1000"));
        plainPeer = tcp.open(settings(null, "2000"));
        keyedPeer = tcp.open(settings(KEY, "2000"));
        linked(plainPeer, plain, new CopyOnWriteArrayList<>());
        linked(keyedPeer, keyed, new CopyOnWriteArrayList<>());
        plainLive = live(0, plainPeer);
        keyedLive = live(1, keyedPeer);
        threads = TcpContexts.threadCount("polylink-tcp-");
    }

    private static Map<String, Object> settings(String key, String connectTimeoutMs) {
        Map<String, Object> s = new HashMap<>(TcpContexts.LOOPBACK);
        s.put("connectTimeoutMs", connectTimeoutMs);
        s.put("failureTimeoutMs", "30000");
        if (key != null) {
            s.put("psk", key);
        }
        return s;
    }

    @AfterEach
    void closeContexts() {
        tcp.close();
    }

    @FuzzTest(maxDuration = "30s")
    void aDiallerClaimingAnyIdNeverTakesALivePeersConnection(FuzzedDataProvider data) {
        boolean toKeyed = data.consumeBoolean();
        Context acceptor = toKeyed ? keyed : plain;
        ContextId from = switch (data.consumeInt(0, 3)) {
            case 0 -> (toKeyed ? keyedPeer : plainPeer).id();
            case 1 -> acceptor.id();
            case 2 -> (toKeyed ? plainPeer : keyedPeer).id();
            default -> ContextId.random();
        };
        ContextId to = data.consumeInt(0, 7) == 0 ? ContextId.random() : acceptor.id();
        PreSharedKey key = switch (data.consumeInt(0, 2)) {
            case 0 -> null;
            case 1 -> RIGHT;
            default -> WRONG;
        };
        ByteBuffer hello = Handshake.hello(key != null, from, to, data.consumeInt(0, 2), data.consumeInt(),
            data.consumeInt(), new byte[Handshake.NONCE_LENGTH]);
        byte[] sent = hello.array().clone();
        for (int changes = data.consumeInt(0, 2); changes > 0; changes--) {
            sent[data.consumeInt(0, sent.length - 1)] = data.consumeByte();
        }
        int cut = data.consumeInt(0, sent.length);
        boolean garbleProof = data.consumeInt(0, 3) == 0;
        byte[] stream = data.consumeRemainingAsBytes();
        try (Socket raw = RawPeer.connect(listening(acceptor))) {
            raw.setSoTimeout(ANSWER_TIMEOUT_MS);
            OutputStream out = raw.getOutputStream();
            InputStream in = raw.getInputStream();
            out.write(sent, 0, cut);
            out.flush();
            out.write(sent, cut, sent.length - cut);
            byte[] head = in.readNBytes(Handshake.HEAD_LENGTH);
            if (head.length == Handshake.HEAD_LENGTH && head[5] == Handshake.KIND_CHALLENGE && key != null) {
                ByteBuffer challenge = ByteBuffer.allocate(Handshake.CHALLENGE_LENGTH).put(head)
                    .put(in.readNBytes(Handshake.CHALLENGE_LENGTH - head.length)).flip();
                Handshake.Challenge c = Handshake.readChallenge(challenge, 0);
                byte[] proof = key.proof(PreSharedKey.Role.DIALLER,
                    Handshake.transcript(ByteBuffer.wrap(sent), c.from(), c.nonce()));
                byte[] message = Handshake.proof(proof).array();
                if (garbleProof) {
                    message[message.length - 1] ^= 1;
                }
                out.write(message);
                head = in.readNBytes(Handshake.HEAD_LENGTH);
            }
            if (head.length == Handshake.HEAD_LENGTH && head[5] == Handshake.KIND_WELCOME) {
                Handshake.Welcome welcome = RawPeer.welcome(head, in);
                if (welcome.status() == Handshake.Status.ACCEPTED) {
                    out.write(stream);
                }
            }
        } catch (IOException closedOrRefused) {
            // what a bad dialler gets
        }
        assertSame(plainLive, live(0, plainPeer), "the plain acceptor gave its peer's connection to a dial claiming it");
        assertSame(keyedLive, live(1, keyedPeer), "the keyed acceptor gave its peer's connection to a dial claiming it");
        assertTrue(plainLive.isOpen() && keyedLive.isOpen(), "a live peer's connection closed");
        assertEquals(threads, TcpContexts.threadCount("polylink-tcp-"), () -> "a tcp thread ended, or one more runs: "
            + Await.threads("polylink-tcp-"));
    }

    /** @return the connection the {@code i}th context's method holds to {@code peer} */
    private Connection live(int i, Context peer) {
        TcpMethod method = tcp.method(i);
        return method.connect(peer.id(), tcp.method(List.of(plain, keyed, plainPeer, keyedPeer).indexOf(peer))
            .localAddress(), Map.of());
    }

    /** The fixture itself: a claim of the live peer's id is refused, so the fuzzer's assertions can fail. */
    @org.junit.jupiter.api.Test
    void aClaimOfTheLivePeersIdIsRefused() throws IOException {
        try (Socket raw = RawPeer.connect(listening(plain))) {
            assertEquals(Handshake.Status.IN_USE, RawPeer.dial(raw, plainPeer.id(), plain.id(), 250, 1000, null).status());
        }
        assertSame(plainLive, live(0, plainPeer), "the claim took the live peer's connection");
    }
}
