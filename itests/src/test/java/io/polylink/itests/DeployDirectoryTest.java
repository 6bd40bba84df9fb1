package io.polylink.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Context;
import io.polylink.NoApplicableMethodException;
import io.polylink.Startpoint;
import io.polylink.spi.CommunicationMethod;
import io.polylink.testkit.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;
import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.common.annotation.InjectService;
import org.osgi.test.junit5.context.BundleContextExtension;
import org.osgi.test.junit5.service.ServiceExtension;

/**
 * The example udp method, a third party's bundle, hot-loaded by the real FileInstall from a deploy
 * directory: it carries RSRs between this framework's context and a second framework's, and goes
 * when its file goes.
 */
@ExtendWith(FailureDigest.class)
@ExtendWith(BundleContextExtension.class)
@ExtendWith(ServiceExtension.class)
class DeployDirectoryTest {

    @InjectBundleContext
    BundleContext bundle;

    @InjectService(timeout = 10_000)
    ConfigurationAdmin configurations;

    @Test
    void aMethodBundleDroppedIntoTheDeployDirectoryCarriesRsrsAndLeavesWithItsFile() throws Exception {
        String name = "inner-" + UUID.randomUUID();
        Path storage = Files.createTempDirectory("polylink-inner-");
        try (DeployDirectory deploy = new DeployDirectory(configurations);
             InnerFramework inner = InnerFramework.start(bundle, storage, name, Udp.jar(bundle))) {
            Context context = Udp.context(bundle);

            deploy.drop(Udp.jar(bundle), "udp.jar");

            Await.until(() -> context.methods().contains("udp"), Duration.ofSeconds(20),
                () -> "FileInstall did not bring udp from " + deploy.path() + "; methods: " + context.methods());
            Startpoint toInner = Udp.lookupWithUdp(context, name);
            Udp.echoes(context, toInner, 200);
            assertEquals("udp", toInner.explain().get(0).chosen().orElseThrow().descriptor().stack(),
                toInner.explain().get(0).toString());
            assertTrue(udpFramesReceived() >= 200, "the replies came in over udp: " + udpFramesReceived());

            deploy.remove("udp.jar");

            Await.until(() -> Udp.installed(bundle).isEmpty() && !context.methods().contains("udp"),
                Duration.ofSeconds(20), () -> "udp stayed after its file went: " + context.methods());
            NoApplicableMethodException gone = assertThrows(NoApplicableMethodException.class,
                () -> Udp.echoes(context, toInner, 1));
            assertTrue(gone.getMessage().contains("udp not installed (method udp is not installed here; "
                + "no bundle repository is configured"), gone.getMessage());
        } finally {
            try (var files = Files.walk(storage)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        Await.until(() -> Await.threads("polylink-udp").isEmpty(), Duration.ofSeconds(10),
            () -> "udp threads left: " + Await.threads("polylink-udp"));
    }

    private long udpFramesReceived() throws Exception {
        var refs = bundle.getServiceReferences(CommunicationMethod.class, "(polylink.method=udp)");
        long frames = 0;
        try {
            for (ServiceReference<CommunicationMethod> ref : refs) {
                frames += bundle.getService(ref).statistics().messagesReceived();
                bundle.ungetService(ref);
            }
        } catch (RuntimeException e) {
            throw new AssertionError("cannot read the udp method's statistics", e);
        }
        return frames;
    }
}
