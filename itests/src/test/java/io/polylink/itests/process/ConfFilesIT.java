package io.polylink.itests.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The distribution's {@code conf/PID.cfg} files list every parameter each Polylink bundle's
 * metatype declares, with the same default: an operator reads the file, not the source.
 */
class ConfFilesIT {

    private static final Pattern LISTED = Pattern.compile("(?m)^#?([A-Za-z][\\w.-]*)=(.*)$");

    @Test
    void everyConfigurationParameterIsListedWithItsDefault() throws Exception {
        Path dist = Installation.dist();
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (Path jar : Metatype.bundles(dist)) {
            for (Metatype.Designate d : Metatype.designates(jar)) {
                Path cfg = dist.resolve("conf").resolve(d.pid() + ".cfg");
                if (!Files.exists(cfg)) {
                    problems.add(jar.getFileName() + " configures " + d.pid() + " but conf/ has no " + cfg.getFileName());
                    continue;
                }
                Map<String, String> listed = listed(Files.readString(cfg));
                for (Map.Entry<String, String> ad : d.defaults().entrySet()) {
                    checked++;
                    String value = listed.get(ad.getKey());
                    if (value == null) {
                        problems.add(cfg.getFileName() + " lacks " + ad.getKey() + " (default " + ad.getValue() + ")");
                    } else if (!ad.getValue().isEmpty() && !value.equals(ad.getValue()) && !value.contains("${")) {
                        problems.add(cfg.getFileName() + " gives " + ad.getKey() + "=" + value + ", the default is "
                            + ad.getValue());
                    }
                }
            }
        }
        assertFalse(checked == 0, "no metatype found in " + dist.resolve("bundle"));
        assertEquals(List.of(), problems);
    }

    /** Keys set or commented out with their value, as {@code #key=value} or {@code key=value}. */
    private static Map<String, String> listed(String cfg) {
        Map<String, String> listed = new TreeMap<>();
        Matcher m = LISTED.matcher(cfg);
        while (m.find()) {
            listed.putIfAbsent(m.group(1), m.group(2).strip());
        }
        return listed;
    }
}
