package io.polylink.itests.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The distribution's {@code conf/PID.cfg} files list every parameter each Polylink bundle's
 * metatype declares, with the same default: an operator reads the file, not the source.
 */
class ConfFilesIT {

    private static final Pattern LISTED = Pattern.compile("(?m)^#?([A-Za-z][\\w.]*)=(.*)$");

    @Test
    void everyConfigurationParameterIsListedWithItsDefault() throws Exception {
        Path dist = Installation.dist();
        List<String> problems = new ArrayList<>();
        int checked = 0;
        try (Stream<Path> jars = Files.list(dist.resolve("bundle"))) {
            for (Path jar : jars.filter(p -> p.getFileName().toString().startsWith("polylink-")).toList()) {
                for (Designate d : designates(jar)) {
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
                        } else if (!ad.getValue().isEmpty() && !sameValue(value, ad.getValue()) && !value.contains("${")) {
                            problems.add(cfg.getFileName() + " gives " + ad.getKey() + "=" + value + ", the default is "
                                + ad.getValue());
                        }
                    }
                }
            }
        }
        assertFalse(checked == 0, "no metatype found in " + dist.resolve("bundle"));
        assertEquals(List.of(), problems);
    }

    /**
     * Whether a listed value is the metatype's default as the configuration reads it: the metatype
     * names an enum's constant ({@code SPIN_THEN_BLOCK}), which a file may write in any case with
     * {@code -} for {@code _} ({@code spin-then-block}).
     */
    private static boolean sameValue(String listed, String metatypeDefault) {
        return listed.equals(metatypeDefault) || listed.replace('-', '_').equalsIgnoreCase(metatypeDefault);
    }

    private record Designate(String pid, Map<String, String> defaults) {}

    private static List<Designate> designates(Path jar) throws Exception {
        List<Designate> found = new ArrayList<>();
        try (JarFile file = new JarFile(jar.toFile())) {
            for (Enumeration<JarEntry> e = file.entries(); e.hasMoreElements(); ) {
                JarEntry entry = e.nextElement();
                if (!entry.getName().startsWith("OSGI-INF/metatype/") || !entry.getName().endsWith(".xml")) {
                    continue;
                }
                try (InputStream in = file.getInputStream(entry)) {
                    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
                    factory.setNamespaceAware(false);
                    Document xml = factory.newDocumentBuilder().parse(in);
                    Map<String, String> defaults = new TreeMap<>();
                    NodeList ads = xml.getElementsByTagName("AD");
                    for (int i = 0; i < ads.getLength(); i++) {
                        Element ad = (Element) ads.item(i);
                        defaults.put(ad.getAttribute("id"), ad.getAttribute("default"));
                    }
                    NodeList designates = xml.getElementsByTagName("Designate");
                    for (int i = 0; i < designates.getLength(); i++) {
                        found.add(new Designate(((Element) designates.item(i)).getAttribute("pid"), defaults));
                    }
                }
            }
        }
        return found;
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
