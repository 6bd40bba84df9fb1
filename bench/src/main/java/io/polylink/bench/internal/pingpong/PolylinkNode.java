package io.polylink.bench.internal.pingpong;

import io.polylink.Context;
import io.polylink.bench.internal.BenchTransforms;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.method.shm.internal.ShmMethod;
import io.polylink.method.shm.internal.connect.ShmAddress;
import io.polylink.method.tcp.internal.TcpMethod;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One polylink peer's context, built for an implementation: the methods and transforms it
 * installs and the stacks it advertises. The server's shm segments go to a temporary directory of
 * its own, deleted on close, so a run leaves nothing behind and never meets another run's
 * segments; the client's go to the same directory, since a context maps only inboxes in
 * directories it trusts, its own first.
 */
final class PolylinkNode implements AutoCloseable {

    /** The core's default maximum message size: the largest ping size fits with room. */
    private static final int MAX_MESSAGE = 8 << 20;
    /** The preferences the methods' components declare: shm ahead of tcp. */
    private static final int SHM_PREFERENCE = 20;
    private static final int TCP_PREFERENCE = 50;
    /** The tcp method's default idle strategy, which multi's "tcp installed" cases run with. */
    static final String TCP_DEFAULT_IDLE = "spin-then-block";

    private final EmbeddedContext embedded;
    private final TempDirectory shmDirectory;

    private PolylinkNode(EmbeddedContext embedded, TempDirectory shmDirectory) {
        this.embedded = embedded;
        this.shmDirectory = shmDirectory;
    }

    /**
     * @param impl a {@code polylink:*} implementation or a multi case ({@link Peers})
     * @param idle the {@code --idle} option, in the tcp method's words; shm gets its equivalent
     * @return the context, started
     */
    static PolylinkNode open(String impl, String idle) throws IOException {
        return open(impl, idle, null);
    }

    /**
     * @param serverText for a client, the server's startpoint, whose shm segment directory the
     *     client shares; {@code null} for the server
     */
    static PolylinkNode open(String impl, String idle, String serverText) throws IOException {
        boolean shm = Peers.usesShm(impl);
        boolean tcp = !impl.equals(Peers.POLYLINK_SHM);
        String stack = Peers.stack(impl);
        // A transform stack is advertised alone, so the link cannot fall back to plain tcp.
        List<String> table = stack.contains("/") ? List.of(stack) : List.of();
        TempDirectory directory = shm && serverText == null ? TempDirectory.create("polylink-bench-shm-") : null;
        EmbeddedContext embedded = null;
        try {
            embedded = EmbeddedContext.open(MAX_MESSAGE, 2, table);
            if (shm) {
                Path segments = directory != null ? directory.path() : shmDirectory(embedded.context(), serverText);
                embedded.add(new ShmMethod(Map.of("directory", segments.toString(),
                    "idleStrategy", shmIdle(idle))), SHM_PREFERENCE);
            }
            if (tcp) {
                // With shm beside it, tcp stays as configured by default: multi measures an installed method.
                String tcpIdle = shm ? TCP_DEFAULT_IDLE : idle;
                embedded.add(new TcpMethod(Map.of("bindAddress", "127.0.0.1", "idleStrategy", tcpIdle)), TCP_PREFERENCE);
            }
            if (stack.startsWith("lz4/")) {
                embedded.add(BenchTransforms.lz4());
            } else if (stack.startsWith("aead/")) {
                embedded.add(BenchTransforms.aead("aes-256-gcm"));
            }
            return new PolylinkNode(embedded, directory);
        } catch (RuntimeException | Error e) {
            closeAll(embedded, directory);
            throw e;
        }
    }

    /** @return the segment directory in the shm entry of the startpoint {@code text} */
    private static Path shmDirectory(Context context, String text) {
        return context.startpoint(text).targets().get(0).table().entries().stream()
            .filter(d -> d.method().equals("shm")).findFirst()
            .map(d -> ShmAddress.decode(d.address()).directory())
            .orElseThrow(() -> new IllegalArgumentException("the server's startpoint has no shm entry: " + text));
    }

    /** @return the shm method's name for the tcp idle strategy {@code idle} */
    static String shmIdle(String idle) {
        return switch (idle) {
            case "spin" -> "spin";
            case "spin-then-block" -> "spin-then-park";
            case "block" -> "park";
            default -> throw new IllegalArgumentException("unknown idle strategy " + idle);
        };
    }

    EmbeddedContext embedded() {
        return embedded;
    }

    Context context() {
        return embedded.context();
    }

    @Override
    public void close() {
        closeAll(embedded, shmDirectory);
    }

    private static void closeAll(EmbeddedContext embedded, TempDirectory directory) {
        List<RuntimeException> failures = new ArrayList<>();
        try {
            if (embedded != null) {
                embedded.close();
            }
        } catch (RuntimeException e) {
            failures.add(e);
        }
        if (directory != null) {
            directory.close();
        }
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
    }
}
