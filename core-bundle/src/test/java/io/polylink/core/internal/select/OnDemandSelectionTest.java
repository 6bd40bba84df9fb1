package io.polylink.core.internal.select;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Descriptor;
import io.polylink.Explanation;
import io.polylink.Startpoint;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.core.internal.Internals;
import io.polylink.core.internal.PipeMethod;
import io.polylink.testkit.Await;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What selection tells the provisioner of entries it cannot use, and the stacks descriptor files
 * add to a context's own table.
 */
class OnDemandSelectionTest {

    private final EmbeddedContext context = EmbeddedContext.open();

    @AfterEach
    void close() {
        context.close();
        Await.noThreads("polylink-");
    }

    @Test
    void selectionNamesEachMissingMethodAndTransformAndShowsTheProvisionersAnswer() {
        List<String> asked = new CopyOnWriteArrayList<>();
        Internals.selector(context).onDemand((namespace, name) -> {
            asked.add(namespace + "=" + name);
            return "; installing it from file:/repo/index.xml";
        });
        Startpoint s = context.context().createEndpoint().startpoint()
            .editTable(t -> t.insert(0, new Descriptor("udp", new byte[6]))
                .insert(1, new Descriptor("lz4/local", new byte[0])));

        String why = s.explain().get(0).toString();

        assertTrue(why.contains("1. udp not installed (method udp is not installed here; installing it "
            + "from file:/repo/index.xml)"), why);
        assertTrue(why.contains("2. lz4/local not installed (transform lz4 is not installed here; "
            + "installing it from file:/repo/index.xml)"), why);
        assertTrue(why.contains("3. local chosen"), why);
        assertEquals(List.of("polylink.method=udp", "polylink.transform=lz4"), asked);
    }

    @Test
    void withoutAProvisionerTheReasonIsAsBefore() {
        Startpoint s = context.context().createEndpoint().startpoint()
            .editTable(t -> t.insert(0, new Descriptor("udp", new byte[6])));
        Explanation why = s.explain().get(0);
        assertEquals("method udp is not installed here", why.entries().get(0).reason());
    }

    @Test
    void aDescriptorFilesStackComesAfterLocalOnceItsMethodIsInstalledAndGoesWithTheFile() {
        try (EmbeddedContext configured = EmbeddedContext.open(1 << 20, 1, List.of("fast"))) {
            PipeMethod.Network network = new PipeMethod.Network();
            configured.add(new PipeMethod(network, "fast"), 10);
            Internals.installed(configured).deploy("/deploy/pipe.method", List.of("pipe", "lz4/pipe", "fast"));
            assertEquals(List.of("local", "fast"), stacks(configured), "pipe is not installed yet");

            configured.add(new PipeMethod(network, "pipe"), 50);
            assertEquals(List.of("local", "pipe", "fast"), stacks(configured),
                "after local, in file order; lz4 is still missing; fast listed once");

            Internals.installed(configured).withdraw("/deploy/pipe.method");
            assertEquals(List.of("local", "fast"), stacks(configured), "withdrawn with the file");
        }
    }

    private static List<String> stacks(EmbeddedContext c) {
        return c.context().descriptorTable().entries().stream().map(Descriptor::stack).toList();
    }
}
