package io.polylink.core.internal.shell;

import io.polylink.Context;
import io.polylink.Endpoint;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import io.polylink.Statistics;
import io.polylink.core.internal.channel.PeerChannels;
import io.polylink.core.internal.endpoint.SystemEndpoint;
import io.polylink.core.internal.flow.Flows;
import io.polylink.core.internal.observe.Units;
import io.polylink.core.internal.registry.Installed;
import io.polylink.spi.Connection;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.felix.service.command.Descriptor;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * Gogo shell commands, scope {@code polylink}: readable tables of what the context has and does.
 * Gogo finds them by the service properties; its {@code help} reads the {@link Descriptor}s,
 * which need Gogo only where a shell reads them.
 */
@Component(service = ShellCommands.class, property = {
    "osgi.command.scope=polylink",
    "osgi.command.function=methods",
    "osgi.command.function=table",
    "osgi.command.function=stats",
    "osgi.command.function=links",
    "osgi.command.function=explain",
    "osgi.command.function=ping"})
public final class ShellCommands {

    private final Context context;
    private final Installed installed;
    private final Flows flows;
    private final PeerChannels channels;

    @Activate
    public ShellCommands(@Reference Context context, @Reference Installed installed, @Reference Flows flows,
                         @Reference PeerChannels channels) {
        this.context = context;
        this.installed = installed;
        this.flows = flows;
        this.channels = channels;
    }

    /** polylink:methods — the installed methods and transforms. */
    @Descriptor("lists the methods and transforms installed in this context, with each method's address")
    public String methods() {
        StringBuilder out = new StringBuilder(String.format("%-12s %-10s %s%n", "NAME", "KIND", "ADDRESS"));
        for (String name : context.methods()) {
            var method = installed.method(name);
            out.append(String.format("%-12s %-10s %s%n", name, "method",
                method == null ? "-" : method.describe(method.localAddress())));
        }
        for (String name : context.transforms()) {
            out.append(String.format("%-12s %-10s %s%n", name, "transform", "-"));
        }
        return out.toString();
    }

    /** polylink:table — this context's descriptor table, the order peers try it in. */
    @Descriptor("shows this context's descriptor table: its stacks in the order peers try them, with addresses")
    public String table() {
        StringBuilder out = new StringBuilder("context " + context.id() + "\n");
        out.append(String.format("%-3s %-16s %s%n", "#", "STACK", "ADDRESS"));
        int i = 1;
        for (io.polylink.Descriptor d : context.descriptorTable()) {
            var method = installed.method(d.method());
            out.append(String.format("%-3d %-16s %s%n", i++, d.stack(),
                method == null ? "(not installed)" : method.describe(d.address())));
        }
        return out.toString();
    }

    /**
     * polylink:links — this context's outgoing flows: one per peer, table and link settings, with
     * the stack each travels on now, the last sequence number sent, how many wait for the peer's
     * acknowledgement, and the round trips timed on its acknowledgements.
     */
    @Descriptor("lists this context's links (flows to peers): the stack each is on, the median and 99th percentile "
        + "round trip timed on its acknowledgements, and RSRs sent and unacknowledged")
    public String links() {
        StringBuilder out = new StringBuilder(String.format("%-16s %-36s %-12s %10s %10s %8s %8s%n",
            "LINK", "PEER", "STACK", "RTT p50", "RTT p99", "SENT", "UNACKED"));
        flows.describe().forEach(line -> out.append(line).append('\n'));
        return out.toString();
    }

    /** polylink:explain link — why a link (a prefix of its id, from {@code links}) is on its stack. */
    @Descriptor("explains why a link is on its stack: each entry of the peer's table, taken or why not")
    public String explain(@Descriptor("the link's id, or its first hex digits, as polylink:links lists it")
                          String link) {
        return flows.explain(link);
    }

    /**
     * polylink:stats — RSRs, bytes and errors of the context, then frames, bytes, errors and the
     * bytes queued of each method and each of its open connections, then the round trips of every
     * link.
     */
    @Descriptor("shows RSRs, bytes and errors of this context, of each method and of each open connection, "
        + "and the round trips timed on the acknowledgements of every link")
    public String stats() {
        StringBuilder out = new StringBuilder(String.format("%-12s %12s %12s %12s %12s %8s %12s%n",
            "", "SENT", "BYTES SENT", "RECEIVED", "BYTES RECV", "ERRORS", "QUEUED"));
        row(out, "context", context.statistics(), "");
        for (String name : context.methods()) {
            var method = installed.method(name);
            if (method != null) {
                row(out, name, method.statistics(), "");
                for (Connection c : channels.connections(name)) {
                    row(out, "", c.statistics(), " " + c);
                }
            }
        }
        int links = flows.count();
        out.append("round trips (").append(links).append(links == 1 ? " link): " : " links): ")
            .append(flows.roundTrips()).append('\n');
        return out.toString();
    }

    private static void row(StringBuilder out, String name, Statistics s, String what) {
        out.append(String.format("%-12s %12d %12s %12d %12s %8d %12s%s%n", name, s.messagesSent(),
            Units.bytes(s.bytesSent()), s.messagesReceived(), Units.bytes(s.bytesReceived()), s.errors(),
            Units.bytes(s.queuedBytes()), what));
    }

    /** polylink:ping target — ten round trips of 64 bytes. */
    @Descriptor("times 10 round trips of 64 bytes to a context's system endpoint")
    public String ping(@Descriptor("a name a context is published under, or a startpoint text (polylink:…)")
                       String target) {
        return ping(target, 64, 10);
    }

    /**
     * polylink:ping target size count — {@code count} echo round trips of {@code size} bytes to
     * the system endpoint of the context {@code target} names.
     */
    @Descriptor("times round trips of a given size to a context's system endpoint")
    public String ping(@Descriptor("a name a context is published under, or a startpoint text (polylink:…)")
                       String target,
                       @Descriptor("payload bytes of each round trip") int size,
                       @Descriptor("round trips, 1 to 1000000") int count) {
        if (size < 0 || count < 1 || count > 1_000_000) {
            throw new IllegalArgumentException("ping needs a size >= 0 and a count of 1 to 1000000");
        }
        Startpoint to = Targets.resolve(context, target);
        AtomicLong replies = new AtomicLong();
        Endpoint back = context.createEndpoint().register(0, (e, m) -> replies.incrementAndGet());
        try {
            Startpoint replyTo = back.startpoint();
            MessageBuffer message = context.allocateBuffer(size + 64);
            byte[] payload = new byte[size];
            long[] rtt = new long[count];
            for (int i = 0; i < count; i++) {
                long before = replies.get();
                long start = System.nanoTime();
                to.send(SystemEndpoint.ECHO, message.clear().putStartpoint(replyTo).putInt(0)
                    .putRaw(payload, 0, size));
                long deadline = start + TimeUnit.SECONDS.toNanos(5);
                while (replies.get() == before) {
                    if (System.nanoTime() - deadline > 0) {
                        return "no reply within 5 s after " + i + " round trips\n" + to.explain().get(0);
                    }
                    LockSupport.parkNanos(1_000);
                }
                rtt[i] = System.nanoTime() - start;
            }
            Arrays.sort(rtt);
            return String.format("%d round trips of %s to %s via %s: min %s, median %s, max %s%n", count,
                Units.bytes(size), target, to.explain().get(0).chosen().map(e -> e.descriptor().stack()).orElse("?"),
                Units.nanos(rtt[0]), Units.nanos(rtt[count / 2]), Units.nanos(rtt[count - 1]));
        } finally {
            back.close();
        }
    }
}
