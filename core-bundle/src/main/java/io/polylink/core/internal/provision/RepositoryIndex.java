package io.polylink.core.internal.provision;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLConnection;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.osgi.framework.Version;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.ErrorHandler;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * A bundle repository read from an OSGi Repository XML index (the format of the OSGi Repository
 * service specification, as bnd's indexer writes it; plain or gzipped). Only what provisioning
 * needs is kept: each resource's identity, version, content URL, capabilities and requirements.
 * Referrals to other indexes are not followed.
 *
 * <p>Read with the JDK's parser, DTDs and external entities off: an index may come from a URL.
 */
final class RepositoryIndex {

    /** Largest index read, so a wrong URL cannot fill the heap. */
    static final int MAX_INDEX_BYTES = 64 << 20;
    private static final int TIMEOUT_MS = 10_000;

    /** A capability a resource offers: its namespace and typed attributes. */
    record Capability(String namespace, Map<String, Object> attributes) {}

    /** A requirement of a resource: namespace, filter (may be null) and whether it is optional. */
    record Requirement(String namespace, String filter, boolean optional) {}

    /** One bundle of the repository. */
    record Resource(String identity, Version version, URI content, List<Capability> capabilities,
                    List<Requirement> requirements) {

        /** @return whether it offers {@code namespace} with attribute {@code namespace} = {@code name} */
        boolean provides(String namespace, String name) {
            return capabilities.stream().anyMatch(c -> c.namespace().equals(namespace)
                && name.equals(c.attributes().get(namespace)));
        }

        @Override
        public String toString() {
            return identity + " " + version;
        }
    }

    private final URI location;
    private final List<Resource> resources;

    private RepositoryIndex(URI location, List<Resource> resources) {
        this.location = location;
        this.resources = List.copyOf(resources);
    }

    /**
     * @param location {@code file:}, {@code http(s):} or {@code jar:} URL of the index
     * @return the index as it is now
     * @throws IOException naming the location if it cannot be read or is not a repository index
     */
    static RepositoryIndex read(URI location) throws IOException {
        URLConnection connection = location.toURL().openConnection();
        connection.setConnectTimeout(TIMEOUT_MS);
        connection.setReadTimeout(TIMEOUT_MS);
        try (InputStream in = connection.getInputStream()) {
            return parse(location, readBounded(location, in));
        }
    }

    /**
     * @param location where the bytes came from; relative content URLs resolve against it
     * @param bytes the index, plain or gzipped
     * @throws IOException naming the location if it is not a repository index
     */
    static RepositoryIndex parse(URI location, byte[] bytes) throws IOException {
        InputStream in = new ByteArrayInputStream(bytes);
        if (bytes.length >= 2 && (bytes[0] & 0xff) == 0x1f && (bytes[1] & 0xff) == 0x8b) {
            in = new ByteArrayInputStream(readBounded(location, new GZIPInputStream(in)));
        }
        Document document;
        try {
            document = builder().parse(in);
        } catch (SAXException e) {
            throw new IOException("repository index " + location + " is not well-formed XML: " + e.getMessage(), e);
        }
        Element root = document.getDocumentElement();
        if (!"repository".equals(localName(root))) {
            throw new IOException("repository index " + location + " has root element <" + localName(root)
                + ">, not <repository> (expected an OSGi Repository XML index, e.g. from bnd's indexer)");
        }
        List<Resource> resources = new ArrayList<>();
        for (Element resource : children(root, "resource")) {
            resources.add(resource(location, resource));
        }
        return new RepositoryIndex(location, resources);
    }

    /** @return where this index was read from */
    URI location() {
        return location;
    }

    /** @return every resource, in index order */
    List<Resource> resources() {
        return resources;
    }

    /** @return the highest version of a resource offering {@code namespace=name}, if any */
    Optional<Resource> provider(String namespace, String name) {
        return resources.stream().filter(r -> r.provides(namespace, name))
            .max(Comparator.comparing(Resource::version));
    }

    @Override
    public String toString() {
        return "repository " + location + " (" + resources.size() + " resources)";
    }

    private static Resource resource(URI location, Element element) throws IOException {
        List<Capability> capabilities = new ArrayList<>();
        for (Element c : children(element, "capability")) {
            Map<String, Object> attributes = new LinkedHashMap<>();
            for (Element a : children(c, "attribute")) {
                attributes.put(a.getAttribute("name"), typed(location, a));
            }
            capabilities.add(new Capability(c.getAttribute("namespace"), Map.copyOf(attributes)));
        }
        List<Requirement> requirements = new ArrayList<>();
        for (Element r : children(element, "requirement")) {
            String filter = null;
            boolean optional = false;
            for (Element d : children(r, "directive")) {
                switch (d.getAttribute("name")) {
                    case "filter" -> filter = d.getAttribute("value");
                    case "resolution" -> optional = "optional".equals(d.getAttribute("value"));
                    default -> { }
                }
            }
            requirements.add(new Requirement(r.getAttribute("namespace"), filter, optional));
        }
        Map<String, Object> identity = first(capabilities, "osgi.identity");
        Map<String, Object> content = first(capabilities, "osgi.content");
        if (identity == null || content == null || !(content.get("url") instanceof String url)) {
            throw new IOException("repository index " + location + " has a resource without osgi.identity "
                + "or osgi.content url: " + capabilities);
        }
        Object version = identity.getOrDefault("version", Version.emptyVersion);
        return new Resource(String.valueOf(identity.get("osgi.identity")),
            version instanceof Version v ? v : Version.parseVersion(version.toString()),
            location.resolve(url), List.copyOf(capabilities), List.copyOf(requirements));
    }

    private static Map<String, Object> first(List<Capability> capabilities, String namespace) {
        return capabilities.stream().filter(c -> c.namespace().equals(namespace)).findFirst()
            .map(Capability::attributes).orElse(null);
    }

    /** Attribute values as the spec types them, so filters compare versions as versions. */
    private static Object typed(URI location, Element attribute) throws IOException {
        String type = attribute.hasAttribute("type") ? attribute.getAttribute("type") : "String";
        String value = attribute.getAttribute("value");
        try {
            if (type.startsWith("List<") && type.endsWith(">")) {
                String element = type.substring(5, type.length() - 1);
                List<Object> list = new ArrayList<>();
                for (String part : value.split(",")) {
                    list.add(scalar(element, part.strip()));
                }
                return List.copyOf(list);
            }
            return scalar(type, value);
        } catch (IllegalArgumentException e) {
            throw new IOException("repository index " + location + ": attribute " + attribute.getAttribute("name")
                + " of type " + type + " has a bad value '" + value + "'", e);
        }
    }

    private static Object scalar(String type, String value) {
        return switch (type) {
            case "Version" -> Version.parseVersion(value);
            case "Long" -> Long.valueOf(value);
            case "Double" -> Double.valueOf(value);
            default -> value;
        };
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> out = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && name.equals(localName(e))) {
                out.add(e);
            }
        }
        return out;
    }

    private static String localName(Element e) {
        return e.getLocalName() != null ? e.getLocalName() : e.getTagName();
    }

    private static DocumentBuilder builder() throws IOException {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newDefaultInstance();
            factory.setNamespaceAware(true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setExpandEntityReferences(false);
            factory.setXIncludeAware(false);
            DocumentBuilder builder = factory.newDocumentBuilder();
            builder.setErrorHandler(new ErrorHandler() {   // throw, as by default, but print nothing to stderr
                @Override
                public void warning(SAXParseException e) {
                }

                @Override
                public void error(SAXParseException e) throws SAXException {
                    throw e;
                }

                @Override
                public void fatalError(SAXParseException e) throws SAXException {
                    throw e;
                }
            });
            return builder;
        } catch (ParserConfigurationException e) {
            throw new IOException("the JDK's XML parser cannot be configured safely: " + e.getMessage(), e);
        }
    }

    private static byte[] readBounded(URI location, InputStream in) throws IOException {
        byte[] bytes = in.readNBytes(MAX_INDEX_BYTES + 1);
        if (bytes.length > MAX_INDEX_BYTES) {
            throw new IOException("repository index " + location + " is larger than " + MAX_INDEX_BYTES
                + " bytes; is it really an index?");
        }
        return bytes;
    }
}
