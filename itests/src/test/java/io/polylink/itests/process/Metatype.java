package io.polylink.itests.process;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The configuration the built Polylink bundles declare, read from their generated metatype. */
final class Metatype {

    /**
     * One configuration PID of a bundle.
     *
     * @param pid the PID
     * @param defaults each key with its default as a configuration file writes it, empty where the
     *     key has none: an enum's default, which the metatype names as its constant
     *     ({@code SPIN_THEN_BLOCK}), in lower case with {@code -} for {@code _} ({@code spin-then-block})
     */
    record Designate(String pid, Map<String, String> defaults) {}

    private Metatype() {}

    /** @return the Polylink bundles of the distribution's {@code bundle/} folder */
    static List<Path> bundles(Path dist) throws Exception {
        try (Stream<Path> jars = Files.list(dist.resolve("bundle"))) {
            return jars.filter(p -> p.getFileName().toString().startsWith("polylink-")).sorted().toList();
        }
    }

    /** @return the PIDs the bundle's {@code OSGI-INF/metatype/*.xml} designate, with their keys */
    static List<Designate> designates(Path jar) throws Exception {
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
                        String value = ad.getAttribute("default");
                        boolean enumerated = ad.getElementsByTagName("Option").getLength() > 0;
                        defaults.put(ad.getAttribute("id"),
                            enumerated ? value.toLowerCase(Locale.ROOT).replace('_', '-') : value);
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
}
