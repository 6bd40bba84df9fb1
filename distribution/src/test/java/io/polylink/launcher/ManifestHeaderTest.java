package io.polylink.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ManifestHeaderTest {

    @Test
    void everyPackageOfAnExportPackageHeaderWithItsVersion() {
        assertEquals(Map.of("io.polylink", "0.3.0", "io.polylink.spi", "0.5.0"), ManifestHeader.exportedVersions(
            "io.polylink;version=\"0.3.0\",io.polylink.spi;version=\"0.5.0\";uses:=\"io.polylink\""));
        // uses:= lists with commas inside quotes, several packages in one clause, no version
        assertEquals(Map.of("a", "1.2.0", "b", "1.2.0", "c", "0.0.0", "d", "2"), ManifestHeader.exportedVersions(
            "a;b;uses:=\"x,y;z\";version=1.2.0, c;mandatory:=\"m\" ,d;version=\"2\""));
    }
}
