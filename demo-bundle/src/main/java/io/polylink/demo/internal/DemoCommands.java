package io.polylink.demo.internal;

import io.polylink.Context;
import io.polylink.Delivery;
import io.polylink.Descriptor;
import io.polylink.Endpoint;
import io.polylink.Startpoint;
import java.util.BitSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;

/**
 * Gogo commands, scope {@code demo}, that {@code bin/polylink demo} types into its nodes. Each node
 * publishes a demo endpoint as {@code demo-<name>}, with the name its context publishes under; the
 * commands name a peer by that name and keep one startpoint per peer (the demo's "link"), so
 * table edits stay in force across commands.
 * Immediate, so a node publishes its endpoint as soon as the bundle starts, not only once its own
 * shell first calls a command.
 */
@Component(service = DemoCommands.class, immediate = true, property = {
    "osgi.command.scope=demo",
    "osgi.command.function=explain",
    "osgi.command.function=pingpong",
    "osgi.command.function=lz4",
    "osgi.command.function=start",
    "osgi.command.function=await",
    "osgi.command.function=flow",
    "osgi.command.function=finish",
    "osgi.command.function=tally"})
public final class DemoCommands {

    private static final long LOOKUP_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(15);

    private final Context context;
    private final String published;
    private final Endpoint endpoint;
    private final PingPong.PongSignal pongs = new PingPong.PongSignal();
    private final StreamTally tally = new StreamTally();
    private final Map<String, Startpoint> links = new ConcurrentHashMap<>();
    private NumberedStream stream;

    @Activate
    public DemoCommands(@Reference Context context, BundleContext bundle) {
        this.context = context;
        // The name the context publishes under: the core's 'name' setting, else the node's name.
        ServiceReference<Context> reference = bundle.getServiceReference(Context.class);
        Object node = reference == null ? null : reference.getProperty("polylink.name");
        this.published = DemoProtocol.publishedName(node instanceof String name ? name : context.id().toString());
        this.endpoint = context.createEndpoint()
            // Inline, on the thread that received the PING: the answer goes out with no hand-off to the executor.
            .register(DemoProtocol.PING, Delivery.INLINE, new Echo(context))
            .register(DemoProtocol.PONG, Delivery.INLINE, (e, m) -> pongs.arrived())
            .register(DemoProtocol.STREAM, (e, m) -> tally.arrived(m.getLong(), m.getLong()))
            .register(DemoProtocol.END, (e, m) -> {
                long stream = m.getLong();
                long attempts = m.getLong();
                int failedCount = m.getInt();
                BitSet failed = new BitSet();
                for (int i = 0; i < failedCount; i++) {
                    failed.set((int) m.getLong());
                }
                tally.ended(stream, new StreamTally.StreamEnd(attempts, failed));
            });
        context.publish(published, endpoint.startpoint());
    }

    @Deactivate
    void deactivate() throws InterruptedException {
        synchronized (this) {
            if (stream != null) {
                stream.close();
            }
        }
        context.unpublish(published);
        endpoint.close();
    }

    /** demo:explain PEER — how selection treats each entry of the peer's table, for the link to it. */
    public String explain(String peer) {
        return link(peer).explain().get(0).toString();
    }

    /** demo:pingpong PEER SIZES COUNT — round-trip percentiles per size (sizes comma-separated, in bytes). */
    public String pingpong(String peer, String sizes, int count) {
        if (count < 1 || count > 1_000_000) {
            throw new IllegalArgumentException("count must be 1 to 1000000, not " + count);
        }
        Startpoint link = link(peer);
        String stack = link.explain().get(0).chosen().map(e -> e.descriptor().stack()).orElse("none");
        PingPong pingPong = new PingPong(context, link, endpoint.startpoint(), pongs);
        StringBuilder out = new StringBuilder();
        for (String size : sizes.split(",")) {
            PingPong.Result r = pingPong.run(Integer.parseInt(size.trim()), count, Math.max(10, count / 10));
            out.append(String.format(Locale.ROOT, "latency %-10s %8d %7d %10.1f %10.1f%n", stack, r.size(), r.count(),
                r.p50Micros(), r.p99Micros()));
        }
        return out.toString();
    }

    /**
     * demo:lz4 PEER — puts lz4 on the link at run time: the link's copy of the peer's table gets an
     * {@code lz4/shm} entry first, made from the peer's shm descriptor.
     */
    public String lz4(String peer) {
        Startpoint link = link(peer);
        Descriptor shm = link.targets().get(0).table().entries().stream()
            .filter(d -> d.stack().equals("shm")).findFirst()
            .orElseThrow(() -> new IllegalStateException(peer + "'s table has no shm entry to stack lz4 on: "
                + link.targets().get(0).table()));
        link.editTable(t -> t.insert(0, shm.withStack("lz4/shm")));
        return link.explain().get(0).toString();
    }

    /** demo:start PEER — starts a numbered stream of RSRs to the peer's demo endpoint. */
    public synchronized String start(String peer) {
        if (stream != null) {
            throw new IllegalStateException("a stream is running; demo:finish ends it");
        }
        stream = new NumberedStream(context, link(peer), System.nanoTime());
        return "stream to " + peer + " started";
    }

    /** demo:await STACK TIMEOUT_MS — waits until the running stream's link has this stack. */
    public String await(String stack, long timeoutMillis) throws InterruptedException {
        return running().awaitStack(stack, timeoutMillis);
    }

    private synchronized NumberedStream running() {
        if (stream == null) {
            throw new IllegalStateException("no stream is running; demo:start PEER starts one");
        }
        return stream;
    }

    /** demo:flow COUNT TIMEOUT_MS — waits until the running stream has sent COUNT more RSRs. */
    public String flow(long count, long timeoutMillis) throws InterruptedException {
        return running().awaitSent(count, timeoutMillis);
    }

    /** demo:finish — stops the stream and sends its END to the receiver. */
    public String finish() throws InterruptedException {
        NumberedStream running;
        synchronized (this) {
            running = stream;
            stream = null;
        }
        if (running == null) {
            throw new IllegalStateException("no stream is running; demo:start PEER starts one");
        }
        return running.finish();
    }

    /** demo:tally TIMEOUT_MS — on the receiver: waits for the stream's END, then compares. */
    public String tally(long timeoutMillis) throws InterruptedException {
        return tally.awaitResult(timeoutMillis);
    }

    /** The peer's demo endpoint, looked up once; waits for the peer to publish it. */
    private Startpoint link(String peer) {
        return links.computeIfAbsent(peer, p -> {
            long deadline = System.nanoTime() + LOOKUP_TIMEOUT_NANOS;
            while (true) {
                Optional<Startpoint> found = context.lookup(DemoProtocol.publishedName(p));
                if (found.isPresent()) {
                    return found.get();
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("node " + p + " has not published "
                        + DemoProtocol.publishedName(p) + " within 15 s: is the demo bundle running there?");
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20)); // the registry is a directory: no event to wait on
            }
        });
    }
}
