package io.polylink.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Context;
import io.polylink.ContextId;
import io.polylink.Descriptor;
import io.polylink.Endpoint;
import io.polylink.Startpoint;
import io.polylink.spi.CommunicationMethod;
import io.polylink.testkit.Await;
import io.polylink.testkit.LogCapture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.common.annotation.InjectService;
import org.osgi.test.junit5.context.BundleContextExtension;
import org.osgi.test.junit5.service.ServiceExtension;

/**
 * The core's configuration changed while it runs, through the real Config Admin and SCR: what can
 * apply in place does, with the context, its id and its links kept; what cannot restarts the
 * runtime with its id kept; a value that cannot be used is refused in one line and the rest of
 * the node goes on; and the startpoint the context publishes follows its table, descriptor files
 * included, also after the core restarts.
 */
@ExtendWith(FailureDigest.class)
@ExtendWith(BundleContextExtension.class)
@ExtendWith(ServiceExtension.class)
class LiveConfigurationTest {

    private static final Duration LIMIT = Duration.ofSeconds(10);

    @InjectBundleContext
    BundleContext bundle;

    @InjectService(timeout = 10_000)
    ConfigurationAdmin configurations;

    private final String name = "live-" + UUID.randomUUID();
    private final List<LoopMethod> loops = new ArrayList<>();
    private final List<ServiceRegistration<CommunicationMethod>> methods = new ArrayList<>();
    private Configuration core;

    @BeforeEach
    void twoMethodsAndANamedContext() throws Exception {
        for (String method : List.of("loop-a", "loop-b")) {
            Hashtable<String, Object> properties = new Hashtable<>();
            properties.put(CommunicationMethod.NAME_PROPERTY, method);
            LoopMethod loop = new LoopMethod(method);
            loops.add(loop);
            methods.add(bundle.registerService(CommunicationMethod.class, loop, properties));
        }
        core = configurations.getConfiguration("io.polylink.core", coreBundle().getLocation());
        configure(Map.of("name", name, "table", "loop-a,loop-b"));
        awaitPublished(List.of("local", "loop-a", "loop-b"));
    }

    @AfterEach
    void backToTheDefaults() throws Exception {
        core.delete();
        Await.until(() -> Udp.context(bundle).lookup(name).isEmpty(), LIMIT, () -> name + " is still published");
        methods.forEach(ServiceRegistration::unregister);
        Await.until(() -> Await.threads("polylink-test-loop").isEmpty(), LIMIT,
            () -> "loop threads left: " + Await.threads("polylink-test-loop"));
    }

    @Test
    void theTableTimeoutsAndThreadsApplyInPlaceWithTheContextItsIdAndItsLinksKept() throws Exception {
        ServiceReference<Context> before = bundle.getServiceReference(Context.class);
        Context context = Udp.context(bundle);
        List<Integer> seen = new CopyOnWriteArrayList<>();
        Endpoint endpoint = context.createEndpoint().register(1, (e, m) -> seen.add(m.getInt()));
        Startpoint link = endpoint.startpoint().pin("loop-a");
        try (LogCapture log = new LogCapture("io.polylink.core")) {
            IntStream.range(0, 50).forEach(i -> link.send(1, context.allocateBuffer(4).putInt(i)));

            configure(Map.of("name", name, "table", "loop-b,loop-a", "quietAckMs", "250", "handlerThreads", "3",
                "abandonAfterMs", "5000"));
            awaitPublished(List.of("local", "loop-b", "loop-a"));
            IntStream.range(50, 100).forEach(i -> link.send(1, context.allocateBuffer(4).putInt(i)));

            Await.until(() -> seen.size() == 100, LIMIT, () -> seen.size() + " of 100 arrived");
            assertEquals(IntStream.range(0, 100).boxed().toList(), seen, "every RSR once, in order, across the change");
            assertSame(context, Udp.context(bundle), "the same context");
            assertEquals(before.getProperty("service.id"), bundle.getServiceReference(Context.class)
                .getProperty("service.id"), "its service stayed registered");
            assertEquals(List.of("abandonAfterMs, handlerThreads, quietAckMs, table of io.polylink.core applies in "
                + "place; " + context + " keeps its links"), log.lines());
            assertEquals(List.of("local", "loop-b", "loop-a"), stacks(context.descriptorTable().entries()));
        } finally {
            endpoint.close();
        }
    }

    @Test
    void aRequiredStackAppliesInPlaceAndMovesTheLinksOffWhatItNoLongerAdmits() throws Exception {
        Context context = Udp.context(bundle);
        List<Integer> seen = new CopyOnWriteArrayList<>();
        Endpoint endpoint = context.createEndpoint().register(1, (e, m) -> seen.add(m.getInt()));
        Startpoint link = endpoint.startpoint().forbid("local");
        LoopMethod b = loops.get(1);
        try (LogCapture log = new LogCapture("io.polylink.core")) {
            IntStream.range(0, 50).forEach(i -> link.send(1, context.allocateBuffer(4).putInt(i)));
            Await.until(() -> seen.size() == 50, LIMIT, () -> seen.size() + " of 50 arrived over loop-a");
            assertEquals(0, b.frames(), "loop-a comes first");

            configure(Map.of("name", name, "table", "loop-a,loop-b", "require", "loop-b"));
            awaitPublished(List.of("local", "loop-b"));
            IntStream.range(50, 100).forEach(i -> link.send(1, context.allocateBuffer(4).putInt(i)));

            Await.until(() -> seen.size() == 100, LIMIT, () -> seen.size() + " of 100 arrived");
            assertEquals(IntStream.range(0, 100).boxed().toList(), seen, "every RSR once, in order, across the change");
            assertTrue(b.frames() > 0, "the link moved to loop-b");
            assertSame(context, Udp.context(bundle), "the same context");
            assertEquals(List.of("require of io.polylink.core applies in place; " + context + " keeps its links, and "
                + "its connections open again so their stacks are checked against it"), log.lines());
        } finally {
            endpoint.close();
        }
    }

    @Test
    void aValueThatCannotBeUsedIsRefusedInOneLineAndTheRestOfTheChangeApplies() throws Exception {
        Context context = Udp.context(bundle);
        try (LogCapture log = new LogCapture("io.polylink.core")) {
            configure(Map.of("name", name, "table", "loop-b", "quietAckMs", "soon", "maxMessageSize", "12"));

            awaitPublished(List.of("local", "loop-b"));
            Await.until(() -> log.lines().size() == 3, LIMIT, () -> "log: " + log.lines());
            assertEquals(List.of(
                "io.polylink.core: maxMessageSize='12' is not in 1024..1073741824; refused, maxMessageSize stays '8388608'",
                "io.polylink.core: quietAckMs='soon' is not a 64-bit integer; refused, quietAckMs stays '1000'",
                "table of io.polylink.core applies in place; " + context + " keeps its links"),
                log.lines().stream().sorted().toList());
            assertSame(context, Udp.context(bundle));
            assertEquals(8 << 20, context.maxMessageSize());
            assertEquals(1, shellCommands(), "the polylink:* commands are still there");

            // as the shipped .cfg comment writes it: stacks whose method is missing are left out
            configure(Map.of("name", name, "table", "shm,lz4/tcp,tcp,loop-a"));
            awaitPublished(List.of("local", "loop-a"));
            assertSame(context, Udp.context(bundle));
        }
    }

    @Test
    void aChangeOnlyANewRuntimeAppliesRestartsItWithTheIdKeptAndSaysSoOnce() throws Exception {
        Context before = Udp.context(bundle);
        ContextId id = before.id();
        try (LogCapture log = new LogCapture("io.polylink.core")) {
            configure(Map.of("name", name, "table", "loop-a,loop-b", "maxMessageSize", "65536"));

            Await.until(() -> Udp.context(bundle).maxMessageSize() == 65536, LIMIT,
                () -> "no runtime with maxMessageSize=65536: " + log.lines());
            Context after = Udp.context(bundle);
            assertEquals(id, after.id(), "the id is kept");
            assertEquals(List.of("maxMessageSize of io.polylink.core changed, which only a new context runtime "
                + "applies: it starts again as context " + id + " (id kept); links to it close and come back, "
                + "its endpoints close"), log.lines());
            awaitPublished(List.of("local", "loop-a", "loop-b"));
            assertEquals(id, after.lookup(name).orElseThrow().targets().get(0).context());
            List<Integer> seen = new CopyOnWriteArrayList<>();
            after.createEndpoint().register(1, (e, m) -> seen.add(m.getInt())).startpoint().pin("loop-a")
                .send(1, after.allocateBuffer(4).putInt(7));
            Await.until(() -> seen.equals(List.of(7)), LIMIT, seen::toString);
        }
    }

    @Test
    void aDescriptorFileThatReordersTheTableIsPublishedAndAppliedAgainAfterTheCoreRestarts() throws Exception {
        try (DeployDirectory deploy = new DeployDirectory(configurations)) {
            deploy.write("first.method", "loop-b\n");
            awaitPublished(List.of("local", "loop-b", "loop-a"));
            ContextId id = Udp.context(bundle).id();

            Bundle coreBundle = coreBundle();
            coreBundle.stop();
            coreBundle.start();

            awaitPublished(List.of("local", "loop-b", "loop-a"));
            Context after = Udp.context(bundle);
            assertEquals(id, after.id(), "a restarted core keeps its id");
            assertEquals(List.of("local", "loop-b", "loop-a"), stacks(after.descriptorTable().entries()));

            deploy.remove("first.method");
            awaitPublished(List.of("local", "loop-a", "loop-b"));
        }
    }

    private void configure(Map<String, String> properties) throws Exception {
        core.update(new Hashtable<>(properties));
    }

    /** Waits until the startpoint published under the test's name lists these stacks. */
    private void awaitPublished(List<String> stacks) {
        Await.until(() -> stacks.equals(published()), LIMIT, () -> "published under " + name + ": " + published()
            + ", wanted " + stacks + "; the context's own table: " + stacks(Udp.context(bundle).descriptorTable()
            .entries()));
    }

    private List<String> published() {
        try {
            return Udp.context(bundle).lookup(name).map(s -> stacks(s.targets().get(0).table().entries()))
                .orElse(List.of());
        } catch (RuntimeException e) {
            return List.of("(" + e + ")");
        }
    }

    private static List<String> stacks(List<Descriptor> entries) {
        return entries.stream().map(Descriptor::stack).toList();
    }

    private int shellCommands() throws Exception {
        ServiceReference<?>[] refs = bundle.getServiceReferences((String) null,
            "(&(osgi.command.scope=polylink)(osgi.command.function=table))");
        return refs == null ? 0 : refs.length;
    }

    private Bundle coreBundle() {
        return Arrays.stream(bundle.getBundles()).filter(b -> "io.polylink.core".equals(b.getSymbolicName()))
            .findFirst().orElseThrow();
    }
}
