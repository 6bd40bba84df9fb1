package io.polylink.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.polylink.Context;
import io.polylink.Endpoint;
import io.polylink.Startpoint;
import io.polylink.spi.CommunicationMethod;
import io.polylink.testkit.Await;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.Hashtable;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.junit5.context.BundleContextExtension;

/**
 * The context's and its links' MBeans in the platform MBean server of the framework's JVM:
 * registered as the context starts and as links begin, carrying their statistics and round
 * trips, and all gone once the core stops.
 */
@ExtendWith(FailureDigest.class)
@ExtendWith(BundleContextExtension.class)
class ManagementBeansTest {

    private static final Duration LIMIT = Duration.ofSeconds(10);
    private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();

    @InjectBundleContext
    BundleContext bundle;

    @Test
    void theContextAndEachLinkAreMBeansWhileTheCoreRunsAndNoneIsLeftOnceItStops() throws Exception {
        Context context = Udp.context(bundle);
        ObjectName contextBean = new ObjectName("io.polylink:type=Context,context=" + context.id());
        Await.until(() -> SERVER.isRegistered(contextBean), LIMIT, () -> "no " + contextBean + ": " + beans("*"));

        Hashtable<String, Object> properties = new Hashtable<>();
        properties.put(CommunicationMethod.NAME_PROPERTY, "loop-jmx");
        LoopMethod loop = new LoopMethod("loop-jmx");
        ServiceRegistration<CommunicationMethod> method = bundle.registerService(CommunicationMethod.class, loop,
            properties);
        AtomicInteger seen = new AtomicInteger();
        Endpoint endpoint = context.createEndpoint().register(1, (e, m) -> seen.incrementAndGet());
        try {
            Startpoint link = endpoint.startpoint().pin("loop-jmx");
            IntStream.range(0, 1000).forEach(i -> link.send(1, context.allocateBuffer(4).putInt(i)));
            Await.until(() -> seen.get() == 1000, LIMIT, () -> seen.get() + " of 1000 arrived");

            ObjectName links = new ObjectName("io.polylink:type=Link,context=" + context.id() + ",*");
            Await.until(() -> SERVER.queryNames(links, null).stream().anyMatch(l -> roundTrips(l) > 0), LIMIT,
                () -> "no link MBean with round trips: " + beans("type=Link"));
            ObjectName bean = SERVER.queryNames(links, null).stream().filter(l -> roundTrips(l) > 0).findFirst()
                .orElseThrow();
            assertEquals("loop-jmx", SERVER.getAttribute(bean, "Stack"));
            assertEquals(1000L, SERVER.getAttribute(bean, "MessagesSent"));
            assertEquals(context.id().toString(), SERVER.getAttribute(bean, "Peer"));
            assertEquals(true, (Long) SERVER.getAttribute(contextBean, "MessagesSent") >= 1000);
            assertEquals(true, Arrays.asList((String[]) SERVER.getAttribute(contextBean, "Methods")).contains("loop-jmx"));
        } finally {
            endpoint.close();
            method.unregister();
        }

        Bundle core = Arrays.stream(bundle.getBundles()).filter(b -> "io.polylink.core".equals(b.getSymbolicName()))
            .findFirst().orElseThrow();
        core.stop();
        try {
            assertEquals(Set.of(), beans("*"), "MBeans left after the core stopped");
        } finally {
            core.start();
        }
        Await.until(() -> SERVER.isRegistered(contextBean), LIMIT, () -> "no " + contextBean + " after a restart");
    }

    private static long roundTrips(ObjectName link) {
        try {
            return (Long) SERVER.getAttribute(link, "RoundTrips");
        } catch (Exception gone) {
            return 0;
        }
    }

    private static Set<ObjectName> beans(String keys) {
        try {
            return SERVER.queryNames(new ObjectName("io.polylink:" + keys + (keys.equals("*") ? "" : ",*")), null);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
