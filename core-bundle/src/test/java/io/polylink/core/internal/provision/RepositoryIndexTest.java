package io.polylink.core.internal.provision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.core.internal.config.CoreSettings;
import io.polylink.core.internal.provision.RepositoryIndex.Resource;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.osgi.framework.FrameworkUtil;
import org.osgi.framework.Version;

/** Reading OSGi Repository XML indexes as bnd's indexer writes them. */
class RepositoryIndexTest {

    private static final URI HERE = URI.create("file:/srv/repo/index.xml");

    private static final String INDEX = """
        <?xml version='1.0' encoding='UTF-8'?>
        <repository name='polylink' increment='1' xmlns='http://www.osgi.org/xmlns/repository/v1.0.0'>
          <resource>
            <capability namespace='osgi.identity'>
              <attribute name='osgi.identity' value='io.polylink.method.udp'/>
              <attribute name='type' value='osgi.bundle'/>
              <attribute name='version' type='Version' value='0.1.0.SNAPSHOT'/>
            </capability>
            <capability namespace='osgi.content'>
              <attribute name='osgi.content' value='abc'/>
              <attribute name='url' value='bundles/udp.jar'/>
              <attribute name='size' type='Long' value='12345'/>
            </capability>
            <capability namespace='polylink.method'>
              <attribute name='polylink.method' value='udp'/>
            </capability>
            <requirement namespace='osgi.wiring.package'>
              <directive name='filter' value='(&amp;(osgi.wiring.package=io.polylink.spi)(version&gt;=0.1.0)(!(version&gt;=1.0.0)))'/>
            </requirement>
            <requirement namespace='osgi.wiring.package'>
              <directive name='filter' value='(osgi.wiring.package=org.example.optional)'/>
              <directive name='resolution' value='optional'/>
            </requirement>
          </resource>
          <resource>
            <capability namespace='osgi.identity'>
              <attribute name='osgi.identity' value='io.polylink.method.udp'/>
              <attribute name='version' type='Version' value='0.2.0'/>
            </capability>
            <capability namespace='osgi.content'>
              <attribute name='url' value='https://example.org/udp-0.2.0.jar'/>
            </capability>
            <capability namespace='polylink.method'>
              <attribute name='polylink.method' value='udp'/>
            </capability>
            <capability namespace='osgi.wiring.package'>
              <attribute name='osgi.wiring.package' value='org.example.lib'/>
              <attribute name='version' type='Version' value='1.10.2'/>
              <attribute name='mandatory' type='List&lt;String&gt;' value='a, b'/>
            </capability>
          </resource>
        </repository>
        """;

    @Test
    void findsTheHighestVersionOfferingACapabilityAndResolvesItsUrl() throws Exception {
        RepositoryIndex index = RepositoryIndex.parse(HERE, INDEX.getBytes(StandardCharsets.UTF_8));

        Resource udp = index.provider("polylink.method", "udp").orElseThrow();

        assertEquals(2, index.resources().size());
        assertEquals(new Version(0, 2, 0), udp.version());
        assertEquals(URI.create("https://example.org/udp-0.2.0.jar"), udp.content());
        assertEquals(URI.create("file:/srv/repo/bundles/udp.jar"), index.resources().get(0).content());
        assertTrue(index.provider("polylink.method", "tcp").isEmpty());
        assertTrue(index.provider("polylink.transform", "udp").isEmpty());
        assertEquals("repository file:/srv/repo/index.xml (2 resources)", index.toString());
    }

    @Test
    void keepsRequirementsAndTypedAttributesSoFiltersCompareVersions() throws Exception {
        RepositoryIndex index = RepositoryIndex.parse(HERE, INDEX.getBytes(StandardCharsets.UTF_8));
        Resource first = index.resources().get(0);
        Resource second = index.resources().get(1);

        assertEquals(2, first.requirements().size());
        assertFalse(first.requirements().get(0).optional());
        assertTrue(first.requirements().get(1).optional());
        var lib = second.capabilities().stream().filter(c -> c.namespace().equals("osgi.wiring.package"))
            .findFirst().orElseThrow().attributes();
        assertEquals(List.of("a", "b"), lib.get("mandatory"));
        assertTrue(FrameworkUtil.createFilter("(&(osgi.wiring.package=org.example.lib)(version>=1.9.0))").matches(lib));
        assertFalse(FrameworkUtil.createFilter("(&(osgi.wiring.package=org.example.lib)(version>=1.10.10))").matches(lib),
            "versions compare as versions, not as text");
    }

    @Test
    void readsAGzippedIndex() throws Exception {
        ByteArrayOutputStream zipped = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(zipped)) {
            out.write(INDEX.getBytes(StandardCharsets.UTF_8));
        }
        assertEquals(2, RepositoryIndex.parse(HERE, zipped.toByteArray()).resources().size());
    }

    @Test
    void refusesWhatIsNotAnIndexNamingWhereItLooked() {
        IOException notXml = assertThrows(IOException.class,
            () -> RepositoryIndex.parse(HERE, "PK\3\4 a jar?".getBytes(StandardCharsets.ISO_8859_1)));
        assertTrue(notXml.getMessage().startsWith("repository index file:/srv/repo/index.xml is not well-formed XML"),
            notXml.getMessage());
        IOException wrongRoot = assertThrows(IOException.class,
            () -> RepositoryIndex.parse(HERE, "<html/>".getBytes(StandardCharsets.UTF_8)));
        assertTrue(wrongRoot.getMessage().contains("has root element <html>, not <repository>"), wrongRoot.getMessage());
        IOException noContent = assertThrows(IOException.class, () -> RepositoryIndex.parse(HERE,
            "<repository><resource><capability namespace='osgi.identity'/></resource></repository>"
                .getBytes(StandardCharsets.UTF_8)));
        assertTrue(noContent.getMessage().contains("a resource without osgi.identity or osgi.content url"),
            noContent.getMessage());
    }

    @Test
    void refusesDoctypesSoAnIndexFromAUrlCannotReadLocalFiles() {
        String evil = "<?xml version='1.0'?><!DOCTYPE r [<!ENTITY x SYSTEM 'file:///etc/passwd'>]>"
            + "<repository>&x;</repository>";
        IOException e = assertThrows(IOException.class,
            () -> RepositoryIndex.parse(HERE, evil.getBytes(StandardCharsets.UTF_8)));
        assertTrue(e.getMessage().contains("DOCTYPE"), e.getMessage());
    }

    @Test
    void aPathOrAUrlNamesTheRepository() {
        assertEquals(URI.create("https://example.org/index.xml.gz"),
            CoreSettings.repository("https://example.org/index.xml.gz"));
        assertEquals("file", CoreSettings.repository("repo/index.xml").getScheme());
        assertTrue(CoreSettings.repository("repo/index.xml").getPath().endsWith("/repo/index.xml"));
    }
}
