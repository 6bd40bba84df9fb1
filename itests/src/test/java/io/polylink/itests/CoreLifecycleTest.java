package io.polylink.itests;

import io.polylink.testkit.Await;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.polylink.Context;
import io.polylink.ContextId;
import io.polylink.Delivery;
import io.polylink.Endpoint;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.junit5.context.BundleContextExtension;

/** Stopping and starting the core bundle, as an operator would. */
@ExtendWith(FailureDigest.class)
@ExtendWith(BundleContextExtension.class)
class CoreLifecycleTest {

    @InjectBundleContext
    BundleContext bundle;

    private Context context() {
        Await.until(() -> bundle.getServiceReference(Context.class) != null, Duration.ofSeconds(10),
            () -> "no Context service");
        ServiceReference<Context> ref = bundle.getServiceReference(Context.class);
        return bundle.getService(ref);
    }

    @Test
    void stoppingTheCoreLeavesNoThreadsAndStartingItBringsTheContextBackWithItsId() throws Exception {
        Bundle core = Arrays.stream(bundle.getBundles())
            .filter(b -> "io.polylink.core".equals(b.getSymbolicName())).findFirst().orElseThrow();
        Context before = context();
        ContextId firstId = before.id();
        List<Integer> seen = new CopyOnWriteArrayList<>();
        Endpoint busy = before.createEndpoint().register(1, Delivery.EXECUTOR, (e, m) -> seen.add(m.getInt()));
        for (int i = 0; i < 100; i++) {
            busy.startpoint().send(1, before.allocateBuffer(4).putInt(i));
        }
        Await.until(() -> seen.size() == 100, Duration.ofSeconds(5), () -> seen.size() + " of 100");
        assertNotEquals(List.of(), List.copyOf(Await.threads("polylink-handler-")), "handler threads ran");

        core.stop();
        try {
            Await.until(() -> Await.threads("polylink-").isEmpty(), Duration.ofSeconds(10),
                () -> "threads left after stopping the core: " + Await.threads("polylink-"));
            assertNull(bundle.getServiceReference(Context.class));
        } finally {
            core.start();
        }

        Context after = context();
        assertNotNull(after);
        assertEquals(firstId, after.id(), "a restarted core keeps its id, recorded in its data area");
        List<Integer> again = new CopyOnWriteArrayList<>();
        after.createEndpoint().register(1, (e, m) -> again.add(m.getInt())).startpoint()
            .send(1, after.allocateBuffer(4).putInt(5));
        assertEquals(List.of(5), again);
    }
}
