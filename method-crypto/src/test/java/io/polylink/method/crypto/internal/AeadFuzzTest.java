package io.polylink.method.crypto.internal;

import static io.polylink.method.crypto.internal.SessionPair.open;
import static io.polylink.method.crypto.internal.SessionPair.seal;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.polylink.ContextId;
import io.polylink.MalformedMessageException;
import io.polylink.MessageTooLargeException;
import io.polylink.spi.TransformSession;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;

/**
 * Fuzz targets for what aead takes from a peer: frames to open and handshakes. In the normal
 * test run they replay the seeds under {@code AeadFuzzTestInputs/}; with {@code JAZZER_FUZZ=1}
 * they fuzz. The context ids and the key are fixed so that a recorded handshake stays valid.
 */
class AeadFuzzTest {

    static final ContextId A = new ContextId(0x0123456789abcdefL, 1);
    static final ContextId B = new ContextId(0x0123456789abcdefL, 2);

    private final AeadTransform transform = SessionPair.transform(Map.of());

    /**
     * Whatever a frame (and its header) looks like, opening it either gives back exactly what was
     * sealed, for the untouched frame, or fails with the documented error and leaves the receiver
     * able to open the genuine frame next.
     */
    @FuzzTest(maxDuration = "30s")
    void openingFramesFromAPeerOnlyRefusesWithTheDocumentedErrorsAndKeepsItsState(FuzzedDataProvider data) {
        try (SessionPair pair = SessionPair.between(A, B, transform, transform)) {
            int mode = data.consumeInt(0, 2);
            int headerChange = data.consumeInt();
            long counter = data.consumeLong();
            byte[] payload = data.consumeBytes(256);
            ByteBuffer header = SessionPair.header(3, 77);
            open(pair.atB, header, seal(pair.atA, header, new byte[] {1}));
            byte[] genuine = seal(pair.atA, header, payload);
            byte[] frame = switch (mode) {
                case 0 -> data.consumeRemainingAsBytes();
                case 1 -> {
                    byte[] changed = genuine.clone();
                    while (data.remainingBytes() >= 5) {
                        changed[data.consumeInt(0, changed.length - 1)] ^= data.consumeByte();
                    }
                    yield changed;
                }
                default -> {
                    byte[] changed = genuine.clone();
                    ByteBuffer.wrap(changed).putLong(0, counter);
                    yield changed;
                }
            };
            ByteBuffer claimed = header.duplicate();
            claimed = ByteBuffer.allocate(8).put(claimed).flip();
            claimed.putInt(0, claimed.getInt(0) ^ headerChange);
            try {
                byte[] opened = open(pair.atB, claimed, frame);
                // Only the genuine frame under the genuine header may open.
                assertArrayEquals(genuine, frame);
                assertArrayEquals(header.array(), claimed.array());
                assertArrayEquals(payload, opened);
                return;
            } catch (MalformedMessageException | MessageTooLargeException refused) {
                // the two errors a bad frame may cause
            }
            assertArrayEquals(payload, open(pair.atB, header, genuine), "the genuine frame after "
                + Arrays.toString(Arrays.copyOf(frame, Math.min(frame.length, 16))));
        }
    }

    /** Whatever a handshake looks like, it keys the session or is refused with the documented error. */
    @FuzzTest(maxDuration = "30s")
    void handshakesFromAPeerOnlyEverRefuseWithTheDocumentedError(byte[] message) {
        TransformSession session = transform.open(new QueuePeer(B, A));
        try {
            session.onHandshake(ByteBuffer.wrap(message));
        } catch (MalformedMessageException refused) {
            // the one error a bad handshake may cause
        } finally {
            session.close();
        }
    }
}
