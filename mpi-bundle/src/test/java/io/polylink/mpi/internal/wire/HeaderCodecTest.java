package io.polylink.mpi.internal.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Context;
import io.polylink.MalformedMessageException;
import io.polylink.MessageBuffer;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.mpi.internal.shared.SharedBytes;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Every header decodes to what was encoded, at the length {@link Header} lays out; damaged ones are refused by name. */
class HeaderCodecTest {

    private final EmbeddedContext embedded = EmbeddedContext.open();
    private final Context context = embedded.context();

    @AfterEach
    void close() {
        embedded.close();
    }

    private Envelope roundTrip(Consumer<MessageBuffer> write, int length) {
        MessageBuffer m = context.allocateBuffer(64);
        write.accept(m);
        assertEquals(length, m.length(), "the header's length as Header lays it out");
        m.putInt(0x5EED);
        Envelope e = HeaderCodec.decode(m);
        assertEquals(0x5EED, m.getInt(), "the read index is left at the data");
        return e;
    }

    @Test
    void everyKindDecodesToWhatWasEncoded() {
        assertEquals(new Envelope(Header.EAGER, 0, 6, 3, 44, 0, 0, 0),
            roundTrip(m -> HeaderCodec.eager(m, 6, 3, 44), Header.EAGER_LENGTH));
        assertEquals(new Envelope(Header.EAGER, Header.FLAG_SYNC, 7, 0, 0, -5L, 0, 0),
            roundTrip(m -> HeaderCodec.eagerSync(m, 7, 0, 0, -5L), Header.EAGER_SYNC_LENGTH));
        assertEquals(new Envelope(Header.RTS, 0, 2, 1, -16, 1L << 40, 0, 1L << 33),
            roundTrip(m -> HeaderCodec.rts(m, 2, 1, -16, 1L << 40, 1L << 33), Header.RTS_LENGTH));
        assertEquals(new Envelope(Header.RTS, Header.FLAG_SHARED, 2, 1, 3, 8, 0, 1L << 20, new SharedBytes(4242, -7L, 4096)),
            roundTrip(m -> HeaderCodec.rtsShared(m, 2, 1, 3, 8, 1L << 20, new SharedBytes(4242, -7L, 4096)),
                Header.RTS_SHARED_LENGTH));
        assertEquals(new Envelope(Header.CTS, 0, 0, 0, 0, 9, 10, 11),
            roundTrip(m -> HeaderCodec.cts(m, 9, 10, 11), Header.CTS_LENGTH));
        assertEquals(new Envelope(Header.DATA, Header.FLAG_LAST, 0, 0, 0, 12, 0, 524288),
            roundTrip(m -> HeaderCodec.data(m, 12, 524288, true), Header.DATA_LENGTH));
        assertEquals(new Envelope(Header.SYNC_ACK, 0, 0, 0, 0, 13, 0, 0),
            roundTrip(m -> HeaderCodec.syncAck(m, 13), Header.ACK_LENGTH));
        assertEquals(new Envelope(Header.FIN, 0, 0, 4, 0, 0, 0, 0),
            roundTrip(m -> HeaderCodec.farewell(m, Header.FIN, 4), Header.FIN_LENGTH));
        assertEquals(new Envelope(Header.ABORT, 0, 0, 2, 0, 0, 0, 7),
            roundTrip(m -> HeaderCodec.abort(m, 2, 7), Header.ABORT_LENGTH));
        assertEquals(new Envelope(Header.PING, 0, 0, 3, 0, 0, 0, 0),
            roundTrip(m -> HeaderCodec.ping(m, 3), Header.FIN_LENGTH));
        assertEquals(new Envelope(Header.FENCE, 0, 0, 5, 0, 1L << 35, 0, 0),
            roundTrip(m -> HeaderCodec.fence(m, 5, 1L << 35), Header.FENCE_LENGTH));
    }

    private void refused(String why, int... bytes) {
        MessageBuffer m = context.allocateBuffer(64);
        for (int b : bytes) {
            m.putByte((byte) b);
        }
        MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> HeaderCodec.decode(m));
        assertTrue(e.getMessage().contains(why), e.getMessage());
    }

    @Test
    void damagedHeadersAreRefusedNamingWhatIsWrong() {
        refused("shorter than the 4", 0x11, 0);
        refused("version 2", 0x21, 0, 0, 0);
        refused("unknown message kind 11", 0x1B, 0, 0, 0);
        refused("RTS with flags 0x1", 0x12, 1, 0, 0);
        refused("CTS with flags 0x4", 0x13, Header.FLAG_SHARED, 0, 0);
        refused("reserved bytes", 0x11, 0, 0, 1);
        refused("EAGER header of 8 bytes; it needs 16", 0x11, 0, 0, 0, 0, 0, 0, 1);
        refused("context -1", 0x11, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0);
        refused("RTS header of 32 bytes; it needs 56", 0x12, Header.FLAG_SHARED, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1);
        refused("RTS with shared offset -1", 0x12, Header.FLAG_SHARED, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1,
            0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 9, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF);
        refused("RTS announcing 0 bytes", 0x12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }
}
