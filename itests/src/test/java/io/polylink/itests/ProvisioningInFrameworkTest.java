package io.polylink.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Context;
import io.polylink.ContextId;
import io.polylink.Descriptor;
import io.polylink.Explanation;
import io.polylink.Startpoint;
import io.polylink.Verdict;
import io.polylink.testkit.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Hashtable;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceReference;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.common.annotation.InjectService;
import org.osgi.test.junit5.context.BundleContextExtension;
import org.osgi.test.junit5.service.ServiceExtension;

/**
 * A context configured with a repository index (made at build time of target/repo) installs a
 * method it lacks when it meets one: in a startpoint it received, or in a descriptor file.
 */
@ExtendWith(FailureDigest.class)
@ExtendWith(BundleContextExtension.class)
@ExtendWith(ServiceExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ProvisioningInFrameworkTest {

    @InjectBundleContext
    BundleContext bundle;

    @InjectService(timeout = 10_000)
    ConfigurationAdmin configurations;

    private Configuration core;
    private Context context;

    @BeforeEach
    void configureTheRepository() throws Exception {
        assertTrue(Udp.installed(bundle).isEmpty(), "udp must not be installed before the test");
        ContextId before = Udp.context(bundle).id();
        // bound to the core bundle, so Config Admin sends one update and no location change
        String coreLocation = Arrays.stream(bundle.getBundles())
            .filter(b -> "io.polylink.core".equals(b.getSymbolicName())).findFirst().orElseThrow().getLocation();
        core = configurations.getConfiguration("io.polylink.core", coreLocation);
        Hashtable<String, Object> properties = new Hashtable<>();
        properties.put("repository", Udp.index(bundle).toString());
        core.update(properties);
        // The repository applies in place: the same context, its provisioner reconfigured.
        awaitRepository(Udp.index(bundle).toString());
        context = Udp.context(bundle);
        assertEquals(before, context.id(), "the context stays");
    }

    /** Waits for the provisioner to take this repository ("": none). */
    private void awaitRepository(String repository) {
        Await.until(() -> {
            ServiceReference<?> provisioner = reference("(objectClass=io.polylink.core.internal.provision.Provisioner)");
            return provisioner != null && repository.equals(provisioner.getProperty("repository"));
        }, Duration.ofSeconds(10), () -> "the provisioner did not take repository=" + repository + "; provisioners: "
            + describe("(objectClass=io.polylink.core.internal.provision.Provisioner)"));
    }

    private String describe(String filter) {
        try {
            ServiceReference<?>[] refs = bundle.getServiceReferences((String) null, filter);
            return refs == null ? "none" : Arrays.stream(refs).map(r -> "id " + r.getProperty("service.id")
                + " repository=" + r.getProperty("repository")).toList().toString();
        } catch (InvalidSyntaxException e) {
            throw new AssertionError(e);
        }
    }

    private ServiceReference<?> reference(String filter) {
        try {
            ServiceReference<?>[] refs = bundle.getServiceReferences((String) null, filter);
            return refs == null ? null : refs[0];
        } catch (InvalidSyntaxException e) {
            throw new AssertionError(e);
        }
    }

    @AfterEach
    void forgetTheRepositoryAndUninstall() throws Exception {
        // The repository goes first: while it is set, a link still waiting for udp (to an inner
        // context that is gone) makes the provisioner install udp again after it is uninstalled.
        core.delete();
        awaitRepository("");
        // An install that began before the repository went still ends: uninstall until none is left.
        Await.until(() -> {
            Udp.installed(bundle).ifPresent(ProvisioningInFrameworkTest::uninstall);
            return Udp.installed(bundle).isEmpty() && Await.threads("polylink-udp").isEmpty()
                && Await.threads("polylink-provision").isEmpty();
        }, Duration.ofSeconds(10), () -> "udp installed: " + Udp.installed(bundle) + "; threads left: "
            + Await.threads("polylink-"));
    }

    private static void uninstall(Bundle b) {
        try {
            b.uninstall();
        } catch (BundleException | IllegalStateException gone) {
            // uninstalled meanwhile: what the wait wants
        }
    }

    /**
     * Last: the link to the inner context outlives it by abandonAfterMs, and while it waits for a
     * way it asks for udp each second, which a later test's repository would install.
     */
    @Test
    @Order(Integer.MAX_VALUE)
    void aStartpointListingAMissingMethodFirstGetsItInstalledFromTheRepositoryAndTheLinkUsesIt() throws Exception {
        String name = "inner-" + UUID.randomUUID();
        Path storage = Files.createTempDirectory("polylink-inner-");
        try (InnerFramework inner = InnerFramework.start(bundle, storage, name, Udp.jar(bundle))) {
            Startpoint toInner = Udp.lookupWithUdp(context, name);
            assertEquals("udp", toInner.targets().get(0).table().entries().get(1).stack(),
                "the inner context lists udp right after local: " + toInner.targets());

            Explanation first = toInner.explain().get(0);

            assertEquals(Verdict.NOT_INSTALLED, first.entries().get(1).verdict(), first.toString());
            assertEquals("method udp is not installed here; installing it from " + Udp.index(bundle).toUri(),
                first.entries().get(1).reason());
            Await.until(() -> toInner.explain().get(0).chosen().map(e -> e.descriptor().stack()).orElse("")
                .equals("udp"), Duration.ofSeconds(20), () -> "udp was not installed and chosen: "
                + toInner.explain().get(0));
            // the replies come back over udp once this context advertises it too
            Await.until(() -> stacks().contains("udp"), Duration.ofSeconds(10), () -> "udp not in " + stacks());
            Udp.echoes(context, toInner, 100);
            assertEquals("udp chosen (loopback datagrams)", toInner.explain().get(0).entries().get(1).toString());
            Bundle installed = Udp.installed(bundle).orElseThrow();
            assertEquals(Bundle.ACTIVE, installed.getState());
            assertTrue(installed.getLocation().endsWith("/repo/polylink-example-method-udp.jar"), installed.getLocation());
        } finally {
            deleteTree(storage);
        }
    }

    @Test
    void aMethodTheRepositoryLacksIsAClearErrorNamingItAndWhereItLooked() {
        Await.until(() -> pigeon(Udp.context(bundle)).reason().contains("cannot install"), Duration.ofSeconds(20),
            () -> pigeon(Udp.context(bundle)).toString());

        String reason = pigeon(Udp.context(bundle)).reason();
        assertTrue(reason.startsWith("method carrier-pigeon is not installed here; cannot install it: no bundle in "
            + "repository " + Udp.index(bundle).toUri() + " (1 resources) provides polylink.method=carrier-pigeon; "
            + "add one whose manifest says 'Provide-Capability: polylink.method;polylink.method=carrier-pigeon'"),
            reason);
        assertTrue(reason.matches(".*\\(tried 1 time; next try in 1 s\\)"), reason);
    }

    /** @return what selection makes of a table listing carrier-pigeon first, on this context */
    private static Explanation.Entry pigeon(Context context) {
        Startpoint s = context.createEndpoint().startpoint()
            .editTable(t -> t.insert(0, new Descriptor("carrier-pigeon", new byte[1])));
        Explanation why = s.explain().get(0);
        assertEquals("local", why.chosen().orElseThrow().descriptor().stack(), "the link goes on over local");
        return why.entries().get(0);
    }

    @Test
    void theShellsInstallCommandInstallsByNameAndSaysWhatItDid() throws Exception {
        // called as Gogo calls a command: by reflection on the service object
        String command = "(&(osgi.command.scope=polylink)(osgi.command.function=install))";
        AtomicReference<Object> found = new AtomicReference<>();
        Await.until(() -> {
            ServiceReference<?> ref = reference(command);
            ServiceReference<?> provisioner = reference("(objectClass=io.polylink.core.internal.provision.Provisioner)");
            if (ref == null || provisioner == null
                || (Long) ref.getProperty("service.id") < (Long) provisioner.getProperty("service.id")) {
                return false;
            }
            found.set(bundle.getService(ref));
            return found.get() != null;
        }, Duration.ofSeconds(10), () -> "no polylink:install command: " + describe(command));
        Object commands = found.get();
        var install = commands.getClass().getMethod("install", String.class);

        String first = (String) install.invoke(commands, "udp");

        Bundle udp = Udp.installed(bundle).orElseThrow(() -> new AssertionError("not installed: " + first));
        assertEquals("installed polylink.method=udp from " + Udp.index(bundle).toUri() + ":\n"
            + String.format("  %-5s %s %s ACTIVE", "[" + udp.getBundleId() + "]", Udp.BSN, udp.getVersion()), first);
        Await.until(() -> context.methods().contains("udp"), Duration.ofSeconds(10), context.methods()::toString);
        assertEquals("nothing to do: bundle " + Udp.BSN + " " + udp.getVersion() + " [" + udp.getBundleId()
            + "] provides polylink.method=udp and is ACTIVE", install.invoke(commands, "udp"));
        assertTrue(((String) install.invoke(commands, "nosuch")).startsWith("cannot install nosuch: no bundle in "
            + "repository " + Udp.index(bundle).toUri() + " (1 resources) provides polylink.method=nosuch or "
            + "polylink.transform=nosuch"));
        assertEquals("'No Such' is not a method or transform name (1 to 32 of a-z, 0-9 and '-')",
            install.invoke(commands, "No Such"));
    }

    @Test
    void aDescriptorFileAddsItsStackToTheTableInstallingTheMethodAndRemovingItWithdrawsBoth() throws Exception {
        try (DeployDirectory deploy = new DeployDirectory(configurations)) {
            deploy.write("udp.method", "# reach this context over the example udp method\nudp\n");

            Await.until(() -> stacks().equals(List.of("local", "udp")), Duration.ofSeconds(20),
                () -> "udp not installed and added after local: " + stacks());
            assertTrue(Udp.installed(bundle).isPresent());

            deploy.remove("udp.method");

            Await.until(() -> stacks().equals(List.of("local")) && Udp.installed(bundle).isEmpty(),
                Duration.ofSeconds(20), () -> "udp not withdrawn with its file: " + stacks() + ", "
                    + Udp.installed(bundle));
        }
    }

    private List<String> stacks() {
        return context.descriptorTable().entries().stream().map(Descriptor::stack).toList();
    }

    private static void deleteTree(Path root) throws Exception {
        try (var files = Files.walk(root)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
