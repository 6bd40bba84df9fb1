package io.polylink.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The node's log file handler, configured through the LogManager as conf/logging.properties does. */
class NodeLogFileTest {

    private static final String PREFIX = NodeLogFile.class.getName() + ".";

    @TempDir
    Path dir;

    @AfterEach
    void defaultLogging() throws IOException {
        LogManager.getLogManager().readConfiguration();
    }

    @Test
    void rotatesBySizeKeepingCountFilesWithTheNewestRecordsInTheNamedFile() throws IOException {
        Path file = dir.resolve("logs/n.log");
        NodeLogFile handler = configured(file, "1000", "3");
        for (int i = 0; i < 1000; i++) {
            handler.publish(record(i));
        }
        handler.close();

        assertFalse(Files.exists(dir.resolve("logs/n.log.3")), "count=3 keeps three files");
        for (String full : List.of("n.log.1", "n.log.2")) {
            long size = Files.size(dir.resolve("logs").resolve(full));
            assertTrue(size >= 1000 && size < 1000 + "record 0000\n".length(), full + " holds " + size + " bytes");
        }
        List<String> lines = new ArrayList<>();
        for (String f : List.of("n.log.2", "n.log.1", "n.log")) {
            lines.addAll(Files.readAllLines(dir.resolve("logs").resolve(f), StandardCharsets.UTF_8));
        }
        int first = 1000 - lines.size();
        assertEquals(IntStream.range(first, 1000).mapToObj(NodeLogFileTest::text).toList(), lines,
            "the three files hold the last records, in order, none lost between files");
    }

    @Test
    void continuesAnExistingFileAndRotatesItOnceFull() throws IOException {
        Path file = dir.resolve("n.log");
        Files.writeString(file, "x".repeat(989) + "\n");
        NodeLogFile handler = configured(file, "1000", "2");
        handler.publish(record(1));
        handler.publish(record(2));
        handler.close();

        assertEquals("x".repeat(989) + "\n" + text(1) + "\n", Files.readString(dir.resolve("n.log.1")));
        assertEquals(text(2) + "\n", Files.readString(file));
    }

    @Test
    void oneFileStartsAgainWhenFull() throws IOException {
        Path file = dir.resolve("n.log");
        NodeLogFile handler = configured(file, "20", "1");
        for (int i = 0; i < 5; i++) {
            handler.publish(record(i));
        }
        handler.close();
        assertEquals(text(4) + "\n", Files.readString(file));
        assertFalse(Files.exists(dir.resolve("n.log.1")));
    }

    @Test
    void aBadSettingIsNamedWithWhatIsAllowed() throws IOException {
        configure(dir.resolve("n.log"), "-1", "3");
        assertEquals(PREFIX + "limit=-1 in logging.properties: give a whole number from 0 to " + Long.MAX_VALUE,
            assertThrows(IllegalArgumentException.class, NodeLogFile::new).getMessage());
        configure(dir.resolve("n.log"), "1000", "many");
        assertEquals(PREFIX + "count=many in logging.properties: give a whole number from 1 to 1000",
            assertThrows(IllegalArgumentException.class, NodeLogFile::new).getMessage());
        LogManager.getLogManager().readConfiguration(new ByteArrayInputStream(new byte[0]));
        assertEquals(PREFIX + "file is not set: name the log file in logging.properties",
            assertThrows(IllegalArgumentException.class, NodeLogFile::new).getMessage());
    }

    private static NodeLogFile configured(Path file, String limit, String count) throws IOException {
        configure(file, limit, count);
        NodeLogFile handler = new NodeLogFile();
        assertEquals(file, handler.file());
        return handler;
    }

    private static void configure(Path file, String limit, String count) throws IOException {
        Properties p = new Properties();
        p.setProperty(PREFIX + "file", file.toString());
        p.setProperty(PREFIX + "limit", limit);
        p.setProperty(PREFIX + "count", count);
        p.setProperty(PREFIX + "level", "ALL");
        p.setProperty(PREFIX + "encoding", "UTF-8");
        p.setProperty("java.util.logging.SimpleFormatter.format", "%5$s%n");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        p.store(bytes, null);
        LogManager.getLogManager().readConfiguration(new ByteArrayInputStream(bytes.toByteArray()));
    }

    private static LogRecord record(int i) {
        return new LogRecord(Level.INFO, text(i));
    }

    private static String text(int i) {
        return String.format("record %04d", i);
    }
}
