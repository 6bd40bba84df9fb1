package io.polylink.method.crypto.internal;

import io.polylink.testkit.RecordingSource;

import io.polylink.testkit.SampleData;

import static io.polylink.method.crypto.internal.SessionPair.header;
import static io.polylink.method.crypto.internal.SessionPair.open;
import static io.polylink.method.crypto.internal.SessionPair.seal;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.ContextId;
import io.polylink.LinkException;
import io.polylink.MalformedMessageException;
import io.polylink.spi.TransformSession;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Two aead sessions joined without the core: keys, counters, tampering, replays, handshakes. */
class AeadSessionTest {

    private static final ByteBuffer HEADER = header(7, 42);

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void framesOpenBothWaysAndCarryTwentyFourBytesOfCounterAndTag() {
        try (SessionPair pair = SessionPair.keyed()) {
            for (int i = 0; i < 5; i++) {
                byte[] toB = SampleData.records(100 * i, i);
                byte[] frame = seal(pair.atA, HEADER, toB);
                assertEquals(toB.length + 24, frame.length);
                assertEquals(i, ByteBuffer.wrap(frame).getLong(0), "the counter leads the frame");
                assertArrayEquals(toB, open(pair.atB, HEADER, frame));
                byte[] toA = bytes("reply " + i);
                assertArrayEquals(toA, open(pair.atA, HEADER, seal(pair.atB, HEADER, toA)));
            }
        }
    }

    /**
     * Frames read off a socket arrive in direct buffers, at an offset, and open into heap ones:
     * through the staging array, kept up to its bound and fresh above it, a frame opens to itself,
     * and a changed one is still refused.
     */
    @Test
    void framesInDirectBuffersOpenOnceStagedWhateverTheirSize() {
        try (SessionPair pair = SessionPair.keyed()) {
            for (int size : new int[] {100, 64 * 1024, Staging.KEEP_BYTES + 1000, 70 * 1024}) {
                byte[] payload = SampleData.records(size, size);
                byte[] frame = seal(pair.atA, HEADER, payload);
                assertArrayEquals(payload, openDirect(pair.atB, frame));
            }
            byte[] changed = seal(pair.atA, HEADER, SampleData.records(5000, 1));
            changed[changed.length / 2] ^= 1;
            assertThrows(MalformedMessageException.class, () -> openDirect(pair.atB, changed));
        }
    }

    private static byte[] openDirect(TransformSession to, byte[] frame) {
        ByteBuffer direct = ByteBuffer.allocateDirect(frame.length + 7).position(7);
        direct.put(frame).position(7);
        ByteBuffer opened = to.decode(HEADER.duplicate(), direct, new RecordingSource(1 << 22));
        byte[] out = new byte[opened.remaining()];
        opened.get(out);
        return out;
    }

    @Test
    void everySingleBitFlipInRecordedFramesAndTheirHeadersIsRejected() {
        try (SessionPair pair = SessionPair.keyed()) {
            List<byte[]> frames = new ArrayList<>();
            List<ByteBuffer> headers = new ArrayList<>();
            int[] sizes = {0, 1, 17, 100};
            for (int i = 0; i < sizes.length; i++) {
                headers.add(header(i, 1000 + i));
                frames.add(seal(pair.atA, headers.get(i), SampleData.records(sizes[i], i)));
            }
            int tried = 0;
            int rejected = 0;
            for (int i = 0; i < frames.size(); i++) {
                byte[] frame = frames.get(i);
                byte[] header = new byte[8];
                headers.get(i).duplicate().get(header);
                for (int bit = 0; bit < (header.length + frame.length) * 8; bit++) {
                    byte[] h = header.clone();
                    byte[] f = frame.clone();
                    if (bit < header.length * 8) {
                        h[bit / 8] ^= (byte) (1 << (bit % 8));
                    } else {
                        f[bit / 8 - header.length] ^= (byte) (1 << (bit % 8));
                    }
                    tried++;
                    try {
                        open(pair.atB, ByteBuffer.wrap(h), f);
                    } catch (MalformedMessageException expected) {
                        rejected++;
                    }
                }
                // The frame as sent still opens: no flipped copy moved the receiver on.
                assertArrayEquals(SampleData.records(sizes[i], i), open(pair.atB, headers.get(i), frame));
            }
            assertEquals(tried, rejected, "flipped frames accepted: " + (tried - rejected));
            System.out.printf("aead: %d of %d single-bit flips rejected%n", rejected, tried);
        }
    }

    @Test
    void replayedAndReorderedFramesAreRejectedAndTheStreamGoesOn() {
        try (SessionPair pair = SessionPair.keyed()) {
            byte[] f0 = seal(pair.atA, HEADER, bytes("zero"));
            byte[] f1 = seal(pair.atA, HEADER, bytes("one"));
            byte[] f2 = seal(pair.atA, HEADER, bytes("two"));

            open(pair.atB, HEADER, f0);
            String replay = assertThrows(MalformedMessageException.class, () -> open(pair.atB, HEADER, f0)).getMessage();
            String reorder = assertThrows(MalformedMessageException.class, () -> open(pair.atB, HEADER, f2)).getMessage();
            assertArrayEquals(bytes("one"), open(pair.atB, HEADER, f1));
            assertThrows(MalformedMessageException.class, () -> open(pair.atB, HEADER, f1));
            assertArrayEquals(bytes("two"), open(pair.atB, HEADER, f2));

            assertTrue(replay.contains("carries counter 0 where 1 is next: it was replayed, reordered"), replay);
            assertTrue(replay.contains("context " + pair.a + " over test"), "names the peer: " + replay);
            assertTrue(reorder.contains("carries counter 2 where 1 is next"), reorder);
        }
    }

    @Test
    void aFrameReflectedToItsSenderFailsAuthenticationEvenWithTheCounterItExpects() {
        try (SessionPair pair = SessionPair.keyed()) {
            open(pair.atB, HEADER, seal(pair.atA, HEADER, bytes("a0")));
            open(pair.atA, HEADER, seal(pair.atB, HEADER, bytes("b0")));
            byte[] a1 = seal(pair.atA, HEADER, bytes("a1"));

            // a expects counter 1 from b next, and a1 carries counter 1: only the key tells them apart.
            String reflected = assertThrows(MalformedMessageException.class, () -> open(pair.atA, HEADER, a1)).getMessage();

            assertTrue(reflected.contains("failed authentication"), reflected);
            assertArrayEquals(bytes("b1"), open(pair.atA, HEADER, seal(pair.atB, HEADER, bytes("b1"))));
            assertArrayEquals(bytes("a1"), open(pair.atB, HEADER, a1));
        }
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"conscrypt aes-256-gcm", "conscrypt chacha20-poly1305",
        "jdk aes-256-gcm", "jdk chacha20-poly1305"})
    void forgedFramesWithHugeOrNextCountersAndBadTagsDoNotDisturbTheFramesAfterThem(String providerAndCipher) {
        String[] choice = providerAndCipher.split(" ");
        try (SessionPair pair = SessionPair.keyed(Map.of("rekeyFrames", 2, "provider", choice[0], "cipher", choice[1]))) {
            open(pair.atB, HEADER, seal(pair.atA, HEADER, bytes("first")));
            byte[] valid = seal(pair.atA, HEADER, bytes("second"));
            byte[] afterRekey = seal(pair.atA, HEADER, bytes("third, under the next key"));
            assertTrue(ByteBuffer.wrap(afterRekey).getLong(0) < 0, "the third frame starts the next key");

            for (long counter : new long[] {Long.MAX_VALUE, 1L << 40, 1, 1 | Long.MIN_VALUE}) {
                byte[] forged = valid.clone();
                ByteBuffer.wrap(forged).putLong(0, counter);
                forged[forged.length - 1] ^= 0x55;
                assertThrows(MalformedMessageException.class, () -> open(pair.atB, HEADER, forged), "counter " + counter);
            }
            byte[] forgedRekey = afterRekey.clone();
            ByteBuffer.wrap(forgedRekey).putLong(0, 2 | Long.MIN_VALUE);
            forgedRekey[10] ^= 1;

            assertArrayEquals(bytes("second"), open(pair.atB, HEADER, valid));
            assertThrows(MalformedMessageException.class, () -> open(pair.atB, HEADER, forgedRekey));
            assertArrayEquals(bytes("third, under the next key"), open(pair.atB, HEADER, afterRekey));
        }
    }

    @Test
    void keysMoveOnAfterTheConfiguredFramesAndTimeAndFramesStillOpen() throws Exception {
        try (SessionPair pair = SessionPair.keyed(Map.of("rekeyFrames", 3))) {
            List<Long> rekeyed = new ArrayList<>();
            for (long i = 0; i < 10; i++) {
                byte[] frame = seal(pair.atA, HEADER, bytes("frame " + i));
                if (ByteBuffer.wrap(frame).getLong(0) < 0) {
                    rekeyed.add(i);
                }
                assertArrayEquals(bytes("frame " + i), open(pair.atB, HEADER, frame));
            }
            assertEquals(List.of(3L, 6L, 9L), rekeyed);
        }
        try (SessionPair pair = SessionPair.keyed(Map.of("rekeyIntervalMs", 20))) {
            byte[] early = seal(pair.atA, HEADER, bytes("early"));
            TimeUnit.MILLISECONDS.sleep(40);
            byte[] late = seal(pair.atA, HEADER, bytes("late"));
            byte[] later = seal(pair.atA, HEADER, bytes("later"));

            assertFalse(ByteBuffer.wrap(early).getLong(0) < 0);
            assertEquals(1 | Long.MIN_VALUE, ByteBuffer.wrap(late).getLong(0), "a new key after the interval");
            assertEquals(2, ByteBuffer.wrap(later).getLong(0));
            open(pair.atB, HEADER, early);
            assertArrayEquals(bytes("late"), open(pair.atB, HEADER, late));
            assertArrayEquals(bytes("later"), open(pair.atB, HEADER, later));
        }
    }

    @Test
    void aPeerWithAnotherPreSharedKeyIsRefusedByNameAndNothingIsSealed() {
        AeadTransform mine = SessionPair.transform(Map.of());
        AeadTransform theirs = SessionPair.transform(Map.of("psk", SessionPair.OTHER_PSK));
        SessionPair pair = SessionPair.unkeyed(mine, theirs);

        MalformedMessageException atB = assertThrows(MalformedMessageException.class, () -> pair.peerA.deliverTo(pair.atB));
        MalformedMessageException atA = assertThrows(MalformedMessageException.class, () -> pair.peerB.deliverTo(pair.atA));
        long start = System.nanoTime();
        LinkException send = assertThrows(LinkException.class, () -> seal(pair.atA, HEADER, bytes("secret")));
        long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertEquals("aead handshake from context " + pair.a + " over test refused: it does not verify with this "
            + "context's pre-shared key: the peer holds another psk (or the message was forged or changed); configure "
            + "the same psk in io.polylink.method.crypto on both", atB.getMessage());
        assertTrue(atA.getMessage().startsWith("aead handshake from context " + pair.b + " over test refused"), atA.getMessage());
        assertTrue(send.getMessage().startsWith("aead link to context " + pair.b + " over test cannot send: its "
            + "handshake was refused"), send.getMessage());
        assertTrue(waitedMs < 1000, "a refused peer fails the send at once, not after the timeout: " + waitedMs + " ms");
        assertThrows(MalformedMessageException.class, () -> pair.atA.decode(HEADER.duplicate(),
            ByteBuffer.allocate(40), new RecordingSource(100)), "no keys, nothing opens");
        pair.close();
    }

    @Test
    void peersWithDifferentCiphersAreRefusedNamingBoth() {
        SessionPair pair = SessionPair.unkeyed(SessionPair.transform(Map.of()),
            SessionPair.transform(Map.of("cipher", "chacha20-poly1305")));

        String refused = assertThrows(MalformedMessageException.class, () -> pair.peerB.deliverTo(pair.atA)).getMessage();

        assertTrue(refused.endsWith("the peer encrypts with chacha20-poly1305, this context with aes-256-gcm; "
            + "configure the same cipher in io.polylink.method.crypto on both"), refused);
        pair.close();
    }

    @Test
    void aSecondHandshakeOnAKeyedConnectionIsRefusedSoBothEndsStartAfresh() {
        try (SessionPair pair = SessionPair.keyed()) {
            TransformSession restarted = SessionPair.transform(Map.of()).open(pair.peerA);

            String refused = assertThrows(MalformedMessageException.class, () -> pair.peerA.deliverTo(pair.atB)).getMessage();

            assertTrue(refused.contains("came a second time on one connection (the peer restarted its aead session)"),
                refused);
            restarted.close();
        }
    }

    @Test
    void aSendWithoutThePeersHandshakeWaitsTheTimeoutThenFailsWithoutSending() {
        SessionPair pair = SessionPair.unkeyed(SessionPair.transform(Map.of("handshakeTimeoutMs", 200)),
            SessionPair.transform(Map.of()));
        RecordingSource output = new RecordingSource(1 << 20);
        long start = System.nanoTime();

        LinkException e = assertThrows(LinkException.class,
            () -> pair.atA.encode(HEADER.duplicate(), ByteBuffer.wrap(bytes("secret")), output));

        long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(waitedMs >= 190 && waitedMs < 2000, waitedMs + " ms");
        assertTrue(e.getMessage().startsWith("no aead handshake from context " + pair.b + " over test within 200 ms, "
            + "so the frame was not sent (aead never sends unencrypted)"), e.getMessage());
        assertEquals(0, output.largestRequest(), "no output was even asked for");
        pair.close();
    }

    @Test
    void closingASessionWakesAWaitingSendWithAClearError() throws Exception {
        SessionPair pair = SessionPair.unkeyed(SessionPair.transform(Map.of("handshakeTimeoutMs", 10_000)),
            SessionPair.transform(Map.of()));
        CompletableFuture<Throwable> send = CompletableFuture.supplyAsync(() -> {
            try {
                seal(pair.atA, HEADER, bytes("secret"));
                return null;
            } catch (RuntimeException e) {
                return e;
            }
        });
        TimeUnit.MILLISECONDS.sleep(100);

        pair.atA.close();

        Throwable failure = send.get(2, TimeUnit.SECONDS);
        assertTrue(failure instanceof LinkException, String.valueOf(failure));
        assertTrue(failure.getMessage().contains("cannot send: the connection closed before the handshake completed"),
            failure.getMessage());
        pair.close();
    }

    @Test
    void aClosedSessionNeitherSealsNorOpens() {
        SessionPair pair = SessionPair.keyed();
        byte[] frame = seal(pair.atA, HEADER, bytes("before"));
        pair.close();

        assertThrows(LinkException.class, () -> seal(pair.atA, HEADER, bytes("after")));
        assertThrows(MalformedMessageException.class, () -> open(pair.atB, HEADER, frame));
    }

    @Test
    void oneSessionThatReadsItsOwnHandshakeIsBothEndsOfALoopback() {
        ContextId self = ContextId.random();
        QueuePeer loop = new QueuePeer(self, self);
        TransformSession session = SessionPair.transform(Map.of()).open(loop);
        loop.deliverTo(session);

        for (int i = 0; i < 3; i++) {
            assertArrayEquals(bytes("to myself " + i), open(session, HEADER, seal(session, HEADER, bytes("to myself " + i))));
        }
        session.close();
    }

    @Test
    void chachaAndTheJdkProviderWorkAndInteroperateWithConscrypt() {
        for (Map<String, Object> setting : List.<Map<String, Object>>of(Map.of("cipher", "chacha20-poly1305"),
            Map.of("provider", "jdk"), Map.of("provider", "jdk", "cipher", "chacha20-poly1305"))) {
            Map<String, Object> conscrypt = new java.util.HashMap<>(setting);
            conscrypt.remove("provider");
            try (SessionPair pair = SessionPair.between(ContextId.random(), ContextId.random(),
                SessionPair.transform(setting), SessionPair.transform(conscrypt))) {
                byte[] payload = SampleData.records(5000, 1);
                assertArrayEquals(payload, open(pair.atB, HEADER, seal(pair.atA, HEADER, payload)), setting.toString());
                assertArrayEquals(payload, open(pair.atA, HEADER, seal(pair.atB, HEADER, payload)), setting.toString());
            }
        }
    }

    @Test
    void badHandshakesAreRefusedWithWhatIsWrong() {
        try (SessionPair pair = SessionPair.keyed()) {
            TransformSession fresh = SessionPair.transform(Map.of()).open(new QueuePeer(pair.b, pair.a));

            String shortOne = assertThrows(MalformedMessageException.class,
                () -> fresh.onHandshake(ByteBuffer.allocate(10))).getMessage();

            assertTrue(shortOne.endsWith("refused: it is 10 bytes, not 66"), shortOne);
            fresh.close();
        }
    }

    @Test
    void aSignedKeyShareOfSmallOrderIsRefused() {
        // A properly signed share of a small-order point would give a secret anyone can compute.
        ContextId a = ContextId.random();
        ContextId b = ContextId.random();
        TransformSession session = SessionPair.transform(Map.of()).open(new QueuePeer(b, a));
        ByteBuffer zero = new Hello(Suite.AES_256_GCM, new byte[32])
            .write(PreSharedKey.fromBase64(SessionPair.PSK).helloKey(), a, b);

        String smallOrder = assertThrows(MalformedMessageException.class, () -> session.onHandshake(zero)).getMessage();

        assertTrue(smallOrder.startsWith("aead handshake from context " + a + " over test refused: its X25519 public "
            + "key is"), smallOrder);
        session.close();
    }
}
