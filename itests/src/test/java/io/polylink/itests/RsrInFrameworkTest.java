package io.polylink.itests;

import io.polylink.testkit.Await;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.polylink.Context;
import io.polylink.Delivery;
import io.polylink.Endpoint;
import io.polylink.Explanation;
import io.polylink.NoApplicableMethodException;
import io.polylink.Startpoint;
import io.polylink.spi.CommunicationMethod;
import java.time.Duration;
import java.util.Hashtable;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.common.annotation.InjectService;
import org.osgi.test.junit5.context.BundleContextExtension;
import org.osgi.test.junit5.service.ServiceExtension;

/** The built api and core bundles in Felix, used through the Context service as an application would. */
@ExtendWith(FailureDigest.class)
@ExtendWith(BundleContextExtension.class)
@ExtendWith(ServiceExtension.class)
class RsrInFrameworkTest {

    @InjectBundleContext
    BundleContext bundle;

    @InjectService(timeout = 10_000)
    Context context;

    @Test
    void anRsrGoesRoundTripOverLocal() {
        List<String> seen = new CopyOnWriteArrayList<>();
        Endpoint pong = context.createEndpoint().register(2, Delivery.EXECUTOR, (e, m) -> seen.add(m.getString()));
        Endpoint ping = context.createEndpoint().register(1, (e, m) ->
            m.getStartpoint().send(2, context.allocateBuffer(16).putString("pong " + m.getInt())));

        ping.startpoint().send(1, context.allocateBuffer(64).putStartpoint(pong.startpoint()).putInt(7));

        Await.until(() -> seen.size() == 1, Duration.ofSeconds(5), () -> "no pong");
        assertEquals(List.of("pong 7"), seen);
        assertEquals("local", ping.startpoint().explain().get(0).chosen().orElseThrow().descriptor().stack());
    }

    @Test
    void aStartpointSentAsTextStillReachesItsEndpoint() {
        List<Integer> seen = new CopyOnWriteArrayList<>();
        Endpoint target = context.createEndpoint().register(3, (e, m) -> seen.add(m.getInt()));
        String text = target.startpoint().toText();
        assertTrue(text.startsWith("polylink:"), text);

        context.startpoint(text).send(3, context.allocateBuffer(4).putInt(42));

        assertEquals(List.of(42), seen);
    }

    @Test
    void multicastReachesThreeEndpoints() {
        List<String> seen = new CopyOnWriteArrayList<>();
        Startpoint all = null;
        for (String name : List.of("a", "b", "c")) {
            Startpoint one = context.createEndpoint(name).register(1, (e, m) -> seen.add(e.attachment() + m.getString()))
                .startpoint();
            all = all == null ? one : all.join(one);
        }

        all.send(1, context.allocateBuffer(8).putString("!"));

        assertEquals(List.of("a!", "b!", "c!"), seen);
    }

    @Test
    void aMethodRegisteredAsAServiceIsSelectedWhenPreferredAndDroppedWhenItGoes() {
        LoopMethod loop = new LoopMethod("loop");
        Hashtable<String, Object> properties = new Hashtable<>();
        properties.put(CommunicationMethod.NAME_PROPERTY, "loop");
        properties.put(CommunicationMethod.PREFERENCE_PROPERTY, 5);
        ServiceRegistration<CommunicationMethod> registration =
            bundle.registerService(CommunicationMethod.class, loop, properties);
        try {
            Await.until(() -> context.methods().contains("loop"), Duration.ofSeconds(5), context.methods()::toString);
            List<Integer> seen = new CopyOnWriteArrayList<>();
            Endpoint target = context.createEndpoint().register(1, (e, m) -> seen.add(m.getInt()));
            Startpoint viaLoop = target.startpoint().editTable(t -> t.prefer("loop"));

            viaLoop.send(1, context.allocateBuffer(4).putInt(1));

            Await.until(() -> seen.contains(1), Duration.ofSeconds(5), () -> "RSR over the loop method lost");
            Explanation why = viaLoop.explain().get(0);
            assertEquals("loop", why.chosen().orElseThrow().descriptor().stack());
            assertEquals("loops back in this framework", why.chosen().orElseThrow().reason());
            assertTrue(loop.frames() >= 1, "frames went through the loop method");
            assertEquals("local", target.startpoint().explain().get(0).chosen().orElseThrow().descriptor().stack(),
                "without the reorder the table's order wins");
        } finally {
            registration.unregister();
        }
        Await.until(() -> !context.methods().contains("loop"), Duration.ofSeconds(5), context.methods()::toString);
        assertTrue(Await.threads("polylink-test-loop").isEmpty(), "the method was stopped");
    }

    @Test
    void explainListsEveryEntryWithItsVerdict() {
        Startpoint s = context.createEndpoint().startpoint().forbid("local");
        Explanation e = s.explain().get(0);
        assertEquals("endpoint " + e.endpoint() + "@" + context.id() + " by first-applicable:\n"
            + "  1. local excluded (local is forbidden by this startpoint)", e.toString());
    }

    @Test
    void noApplicableMethodNamesEveryEntryAndWhy() {
        Endpoint target = context.createEndpoint();
        Startpoint s = target.startpoint().forbid("local");
        NoApplicableMethodException e = assertThrows(NoApplicableMethodException.class,
            () -> s.send(1, context.allocateBuffer(0)));
        assertEquals("no applicable method for endpoint " + target.id() + "@" + context.id()
            + ": local excluded (local is forbidden by this startpoint); install a method the target offers, "
            + "or change the startpoint's table", e.getMessage());
    }
}
