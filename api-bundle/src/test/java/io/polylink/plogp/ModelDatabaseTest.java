package io.polylink.plogp;

import static io.polylink.plogp.LinkModelTest.assertMessage;
import static io.polylink.plogp.LinkModelTest.model;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.polylink.spi.PeerLocation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModelDatabaseTest {

    @TempDir
    Path dir;

    @Test
    void aDatabaseWrittenIsReadBackWhole() throws IOException {
        ModelDatabase db = ModelDatabase.of(List.of(model(PeerLocation.OTHER_SITE, "lz4/tcp", 5000),
            model(PeerLocation.SAME_HOST, "tcp", 12.5), model(PeerLocation.SAME_HOST, "shm", 0.25)));
        assertEquals(List.of("shm", "tcp", "lz4/tcp"), db.models().stream().map(LinkModel::stack).toList(),
            "nearest location first, then by stack");
        Path file = dir.resolve("conf/plogp.models");
        db.write(file);
        assertEquals(db, ModelDatabase.read(file));
        try (var left = Files.list(file.getParent())) {
            assertEquals(List.of(file), left.toList(), "no temporary file left beside it");
        }
    }

    @Test
    void aModelMeasuredAgainReplacesTheOldOneOfItsLocationAndStack() {
        ModelDatabase db = ModelDatabase.EMPTY.with(model(PeerLocation.SAME_HOST, "tcp", 10))
            .with(model(PeerLocation.SAME_SITE, "tcp", 30)).with(model(PeerLocation.SAME_HOST, "tcp", 11));
        assertEquals(2, db.models().size());
        assertEquals(11, db.find(PeerLocation.SAME_HOST, "tcp").orElseThrow().latency());
        assertEquals(30, db.find(PeerLocation.SAME_SITE, "tcp").orElseThrow().latency());
        assertFalse(db.find(PeerLocation.OTHER_SITE, "tcp").isPresent());
        assertMessage("two models of tcp at same-host", () -> ModelDatabase.of(
            List.of(model(PeerLocation.SAME_HOST, "tcp", 10), model(PeerLocation.SAME_HOST, "tcp", 11))));
    }

    @Test
    void aBadFileIsRefusedNamingItsLine() throws IOException {
        String good = ModelDatabase.of(List.of(model(PeerLocation.SAME_HOST, "shm", 0.25))).format();
        assertEquals(1, ModelDatabase.parse(good.replace("\n", "\r\n")).models().size(), "CRLF lines read alike");
        String[] lines = good.split("\n");
        int modelLine = 4;
        assertEquals("model", lines[modelLine - 1].split("\t")[0]);
        assertMessage("line 4: 'same-rack' is not a location", () -> ModelDatabase.parse(
            good.replace("same-host", "same-rack")));
        assertMessage("line 5: 'x' is not a time", () -> ModelDatabase.parse(good.replace("\t0.5000\t", "\tx\t")));
        assertMessage("line 4: '2026-11-30' is not an instant", () -> ModelDatabase.parse(
            good.replace("2026-11-30T06:30:00Z", "2026-11-30")));
        assertMessage("line 6: 5 fields", () -> ModelDatabase.parse(good.replace("\t8.0000\n", "\n")));
        assertMessage("line 1: a size before any model", () -> ModelDatabase.parse("size\t0\t1\t1\t1\t1\n"));
        assertMessage("line 1: 'modle' is neither", () -> ModelDatabase.parse("modle\tsame-host\n"));
        assertMessage("line 4: the sizes of a link model must increase", () -> ModelDatabase.parse(
            good.replace("size\t4096", "size\t16")));
        assertMessage("line 1: a link model holds 1 to 64 sizes, not 0", () -> ModelDatabase.parse(
            lines[3] + "\n"));
        Path file = dir.resolve("bad.models");
        Files.writeString(file, "nonsense\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ModelDatabase.read(file));
        assertEquals(file + ", line 1: 'nonsense' is neither 'model' nor 'size'", e.getMessage());
    }

    @Test
    void aDatabaseIsBounded() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i <= ModelDatabase.MAX_MODELS; i++) {
            text.append("model\tsame-host\tm").append(i).append("\t1\t2026-11-30T06:30:00Z\t\nsize\t0\t1\t1\t1\t1\n");
        }
        assertMessage("more than 256 models", () -> ModelDatabase.parse(text.toString()));
        assertMessage("at most 1048576 characters", () -> ModelDatabase.parse("#".repeat(ModelDatabase.MAX_TEXT + 1)));
    }
}
