package io.polylink.launcher;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import org.osgi.framework.launch.Framework;

/**
 * {@code polylink --version}: the distribution's version (the build's), the versions of the
 * public API and SPI packages as the API bundle in bundle/ exports them, and the framework and
 * Java it runs on.
 */
final class Version {

    private static final String API_JAR = "polylink-api-";

    private Version() {}

    static int run() throws IOException {
        Home home = Home.fromSystemProperty();
        String version = Version.class.getPackage().getImplementationVersion();
        System.out.println("polylink " + (version == null ? "(unknown: the launcher jar has no Implementation-Version)"
            : version));
        Optional<Path> api = apiBundle(home.bundles());
        if (api.isPresent()) {
            Map<String, String> exported = ManifestHeader.exportedVersions(
                Optional.ofNullable(manifest(api.get()).getMainAttributes().getValue("Export-Package")).orElse(""));
            System.out.println("  API  io.polylink      " + exported.getOrDefault("io.polylink", "not exported"));
            System.out.println("  SPI  io.polylink.spi  " + exported.getOrDefault("io.polylink.spi", "not exported"));
        } else {
            System.out.println("  API and SPI: no " + API_JAR + "*.jar in " + home.bundles()
                + ": the distribution is incomplete");
        }
        System.out.println("  on Apache Felix " + felixVersion() + " and Java " + Runtime.version() + " ("
            + System.getProperty("java.vendor") + ")");
        return 0;
    }

    private static Optional<Path> apiBundle(Path bundles) throws IOException {
        try (Stream<Path> jars = Files.list(bundles)) {
            return jars.filter(p -> p.getFileName().toString().startsWith(API_JAR) && p.toString().endsWith(".jar"))
                .findFirst();
        }
    }

    private static String felixVersion() throws IOException {
        try {
            Path jar = Path.of(Framework.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return Optional.ofNullable(manifest(jar).getMainAttributes().getValue("Bundle-Version")).orElse("?");
        } catch (URISyntaxException e) {
            return "?";
        }
    }

    private static Manifest manifest(Path jar) throws IOException {
        try (JarFile file = new JarFile(jar.toFile())) {
            Manifest manifest = file.getManifest();
            return manifest == null ? new Manifest() : manifest;
        }
    }
}
