package io.polylink.mpi.internal.wire;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.polylink.MalformedMessageException;
import io.polylink.MessageBuffer;
import io.polylink.core.internal.EmbeddedContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Fuzzes the engine's header decoder with what a peer could send: it must return a header whose
 * fields are in range, or throw {@link MalformedMessageException}; nothing else. The inputs in
 * {@code src/test/resources/io/polylink/mpi/internal/wire/HeaderFuzzTestInputs/header} run in every
 * build; the build also fuzzes briefly (see the module's pom).
 */
class HeaderFuzzTest {

    private EmbeddedContext embedded;

    @BeforeEach
    void open() {
        embedded = EmbeddedContext.open();
    }

    @AfterEach
    void close() {
        embedded.close();
    }

    @FuzzTest
    void header(byte[] input) {
        MessageBuffer m = embedded.context().allocateBuffer(input.length).putRaw(input, 0, input.length);
        Envelope e;
        try {
            e = HeaderCodec.decode(m);
        } catch (MalformedMessageException refused) {
            return;
        }
        if (e.kind() < Header.EAGER || e.kind() > Header.LAST_KIND || e.context() < 0 || e.source() < 0
                || (e.kind() != Header.ABORT && e.bytes() < 0) || (e.kind() == Header.RTS && e.bytes() == 0)) {
            throw new AssertionError("decoded a header out of range: " + e);
        }
        if ((e.flags() & ~Header.flagsAllowed(e.kind())) != 0) {
            throw new AssertionError("decoded flags its kind does not have: " + e);
        }
    }
}
