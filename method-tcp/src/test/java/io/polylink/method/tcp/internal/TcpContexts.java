package io.polylink.method.tcp.internal;

import io.polylink.Context;
import io.polylink.Endpoint;
import io.polylink.Startpoint;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.method.tcp.internal.address.TcpAddress;
import io.polylink.spi.CommunicationMethod;
import io.polylink.spi.Connection;
import io.polylink.testkit.Await;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;

/**
 * Contexts in this JVM, each with a real tcp method on 127.0.0.1 unless told otherwise; closed
 * together, and then no {@code polylink-} thread may be left.
 */
public final class TcpContexts implements AutoCloseable {

    public static final Map<String, Object> LOOPBACK = Map.of("bindAddress", "127.0.0.1");

    private final List<EmbeddedContext> contexts = new ArrayList<>();
    private final List<TcpMethod> methods = new ArrayList<>();

    /** @return a new context whose tcp method is configured with {@code tcp} */
    public Context open(Map<String, Object> tcp) {
        TcpMethod method = new TcpMethod(tcp);
        return open(method, method);
    }

    /** @return a new context with a tcp method on 127.0.0.1 */
    public Context open() {
        return open(LOOPBACK);
    }

    /**
     * @param method the tcp method, as {@link #method} gives it
     * @param added what the context gets: {@code method}, or a method wrapping it
     * @return a new context
     */
    public Context open(TcpMethod method, CommunicationMethod added) {
        return open(method, added, Map.of());
    }

    /**
     * @param tcp the tcp method's configuration
     * @param core the core's configuration, keyed as a {@code .cfg} file would give it
     * @return a new context
     */
    public Context open(Map<String, Object> tcp, Map<String, ?> core) {
        TcpMethod method = new TcpMethod(tcp);
        return open(method, method, core);
    }

    private Context open(TcpMethod method, CommunicationMethod added, Map<String, ?> core) {
        EmbeddedContext embedded = EmbeddedContext.open(core);
        try {
            embedded.add(added, 50);
        } catch (RuntimeException e) {
            embedded.close();
            throw e;
        }
        contexts.add(embedded);
        methods.add(method);
        return embedded.context();
    }

    /** @return the tcp method of the {@code i}th context opened */
    public TcpMethod method(int i) {
        return methods.get(i);
    }

    /** @return the {@code i}th context opened */
    public EmbeddedContext embedded(int i) {
        return contexts.get(i);
    }

    /** @return the connection the {@code from}th context's method holds to the {@code to}th context */
    public Connection connection(int from, int to) {
        return methods.get(from).connect(contexts.get(to).context().id(), methods.get(to).localAddress(), Map.of());
    }

    @Override
    public void close() {
        contexts.forEach(EmbeddedContext::close);
        Await.until(() -> Await.threads("polylink-").isEmpty(), Duration.ofSeconds(10),
            () -> "threads left: " + Await.threads("polylink-"));
    }

    /** @return how many live threads have a name starting with {@code prefix}; several contexts' threads share names */
    public static int threadCount(String prefix) {
        return (int) Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.isAlive() && t.getName().startsWith(prefix)).count();
    }

    /** @return {@code s}, as a startpoint of context {@code where} */
    public static Startpoint in(Context where, Startpoint s) {
        return where.startpoint(s.toText());
    }

    /** @return the first address {@code c} listens on for tcp */
    public static InetSocketAddress listening(Context c) {
        return TcpAddress.decode(c.descriptorTable().entries().stream()
            .filter(d -> d.method().equals("tcp")).findFirst().orElseThrow().address()).get(0);
    }

    /** @return a startpoint in {@code a} to a sink in {@code b} that keeps each RSR's int, proven by RSR 1 */
    public static Startpoint linked(Context a, Context b, List<Integer> seen) {
        Startpoint s = in(a, b.createEndpoint().register(1, (e, m) -> seen.add(m.getInt())).startpoint());
        s.send(1, a.allocateBuffer(4).putInt(1));
        Await.until(() -> seen.contains(1), Duration.ofSeconds(5), () -> "first RSR lost");
        return s;
    }

    /** Takes a numbered, checksummed stream on handler 1 into {@code next}, noting each RSR out of order or damaged. */
    public static Endpoint checkedSink(Context in, AtomicLong next, List<String> problems) {
        return in.createEndpoint().register(1, (e, m) -> {
            long seq = m.getLong();
            byte[] body = m.getBytes();
            if (seq != next.get() || m.getLong() != checksum(seq, body)) {
                problems.add("at " + next.get() + " got " + seq + " of " + body.length + " bytes");
            }
            next.set(seq + 1);
        });
    }

    /** @return the checksum a numbered RSR carries after its body */
    public static long checksum(long seq, byte[] body) {
        CRC32C crc = new CRC32C();
        crc.update(body);
        return crc.getValue() ^ seq;
    }
}
