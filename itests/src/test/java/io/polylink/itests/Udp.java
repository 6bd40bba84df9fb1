package io.polylink.itests;

import io.polylink.Context;
import io.polylink.Descriptor;
import io.polylink.Endpoint;
import io.polylink.Startpoint;
import io.polylink.testkit.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;

/** What the tests with the example udp method share: where its bundle is, and echo round trips. */
final class Udp {

    static final String BSN = "io.polylink.example.method.udp";
    /** The system endpoint's echo handler: [replyTo][handler][payload] comes back to replyTo. */
    static final int ECHO = 0;

    private Udp() {}

    /** @return the example's jar, copied into target/repo by the build (property set in itests.bndrun) */
    static Path jar(BundleContext bundle) {
        return Path.of(property(bundle, "polylink.itests.udp"));
    }

    /** @return the repository index the build made of target/repo */
    static Path index(BundleContext bundle) {
        return Path.of(property(bundle, "polylink.itests.repository"));
    }

    private static String property(BundleContext bundle, String name) {
        String value = bundle.getProperty(name);
        if (value == null) {
            throw new AssertionError("framework property " + name + " is not set; see itests.bndrun");
        }
        return value;
    }

    /** @return the Context service now (a change of the core's configuration may replace it) */
    static Context context(BundleContext bundle) {
        AtomicReference<Context> found = new AtomicReference<>();
        Await.until(() -> {   // the service may go between finding and getting it: a new runtime
            ServiceReference<Context> ref = bundle.getServiceReference(Context.class);
            found.set(ref == null ? null : bundle.getService(ref));
            return found.get() != null;
        }, Duration.ofSeconds(10), () -> "no Context service");
        return found.get();
    }

    static Optional<Bundle> installed(BundleContext bundle) {
        return Arrays.stream(bundle.getBundles()).filter(b -> BSN.equals(b.getSymbolicName())).findFirst();
    }

    /** @return the inner context's system endpoint, once it is published with udp in its table */
    static Startpoint lookupWithUdp(Context context, String name) {
        Await.until(() -> context.lookup(name).map(Udp::listsUdp).orElse(false), Duration.ofSeconds(20),
            () -> name + " not published with udp in its table: " + context.lookup(name).map(Startpoint::targets));
        return context.lookup(name).orElseThrow();
    }

    private static boolean listsUdp(Startpoint s) {
        return s.targets().get(0).table().entries().stream().map(Descriptor::stack).anyMatch("udp"::equals);
    }

    /** Sends {@code count} echoes through {@code target} and waits for every reply, in order. */
    static void echoes(Context context, Startpoint target, int count) {
        List<Integer> replies = new CopyOnWriteArrayList<>();
        Endpoint back = context.createEndpoint().register(2, (e, m) -> replies.add(m.getInt()));
        try {
            for (int i = 0; i < count; i++) {
                target.send(ECHO, context.allocateBuffer(64).putStartpoint(back.startpoint()).putInt(2).putInt(i));
            }
            Await.until(() -> replies.size() == count, Duration.ofSeconds(20),
                () -> replies.size() + " of " + count + " echoes came back: " + replies + "; this context's "
                    + context.statistics() + "; " + target.explain().get(0));
            for (int i = 0; i < count; i++) {
                if (replies.get(i) != i) {
                    throw new AssertionError("echo " + i + " came back as " + replies.get(i) + ": " + replies);
                }
            }
        } finally {
            back.close();
        }
    }
}
