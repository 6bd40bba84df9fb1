package io.polylink.core.internal.naming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.lang.annotation.Annotation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectoryNameRegistryTest {

    private static DirectoryNameRegistry.Config config(Path directory) {
        return new DirectoryNameRegistry.Config() {
            @Override
            public String directory() {
                return directory.toString();
            }

            @Override
            public Class<? extends Annotation> annotationType() {
                return DirectoryNameRegistry.Config.class;
            }
        };
    }

    @Test
    void aNewDirectoryTakesThePublishedNamesAlong(@TempDir Path temp) throws Exception {
        Path first = temp.resolve("first");
        Path second = temp.resolve("second");
        DirectoryNameRegistry registry = new DirectoryNameRegistry(config(first));
        registry.publish("node-a", "polylink:AAAA");
        registry.publish("gone", "polylink:BBBB");
        registry.unpublish("gone");

        registry.modified(config(second));

        assertEquals(Optional.of("polylink:AAAA"), registry.lookup("node-a"));
        assertEquals(Optional.empty(), registry.lookup("gone"));
        assertFalse(Files.exists(first.resolve("node-a.startpoint")), "the old directory keeps nothing");
        try (var files = Files.list(second)) {
            assertEquals(1, files.count(), "only the published name, no temporary file");
        }
    }
}
