package io.polylink.method.shm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.polylink.Context;
import io.polylink.Startpoint;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.method.shm.internal.segment.InboxLayout;
import io.polylink.method.shm.internal.segment.SegmentDirectory;
import io.polylink.method.tcp.internal.TcpMethod;
import io.polylink.testkit.Await;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Contexts of a test in this JVM, joined by shm in a segment directory of the test's own (and by
 * tcp on 127.0.0.1 where asked); register it as a test class's extension. After each test it
 * closes them and checks that no thread and no file is left behind, then removes the directory.
 */
final class ShmContexts implements BeforeEachCallback, AfterEachCallback {

    private final List<EmbeddedContext> contexts = new ArrayList<>();
    private final List<ShmMethod> methods = new ArrayList<>();
    private Path directory;

    @Override
    public void beforeEach(ExtensionContext test) throws IOException {
        directory = Files.createTempDirectory("polylink-shm-test");
    }

    /** @return the segment directory of the test's contexts: made for the test, private to this user */
    Path directory() {
        return directory;
    }

    /** @return a context with shm alone, its settings {@code shm} over the defaults and the test's directory */
    Context context(Map<String, Object> shm) {
        return add(EmbeddedContext.open(), shm, false);
    }

    Context context() {
        return context(Map.of());
    }

    /** @return a context with shm, as {@link #context(Map)}, and tcp behind it */
    Context both(Map<String, Object> shm) {
        return both(EmbeddedContext.open(), shm);
    }

    /** @param core a context without methods yet, to which shm and tcp are added */
    Context both(EmbeddedContext core, Map<String, Object> shm) {
        return add(core, shm, true);
    }

    private Context add(EmbeddedContext core, Map<String, Object> shm, boolean tcp) {
        Map<String, Object> properties = new HashMap<>(shm);
        properties.putIfAbsent("directory", directory.toString());
        ShmMethod method = new ShmMethod(properties);
        EmbeddedContext embedded = core.add(method, 20);
        if (tcp) {
            embedded.add(new TcpMethod(Map.of("bindAddress", "127.0.0.1")), 50);
        }
        contexts.add(embedded);
        methods.add(method);
        return embedded.context();
    }

    /** @return the shm method of the {@code index}th context made */
    ShmMethod method(int index) {
        return methods.get(index);
    }

    EmbeddedContext embedded(int index) {
        return contexts.get(index);
    }

    Path inboxOf(Context c) {
        return directory.resolve(SegmentDirectory.inboxName(c.id()));
    }

    /** @return the names in the segment directory */
    List<String> files() throws IOException {
        try (Stream<Path> list = Files.list(directory)) {
            return list.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** @return {@code s} as a startpoint of context {@code where}, which it reached in a message */
    static Startpoint in(Context where, Startpoint s) {
        return where.startpoint(s.toText());
    }

    /**
     * @return a startpoint in {@code from} to a handler in {@code to} that holds {@code to}'s poller
     *     at the first RSR until {@code release} opens
     */
    static Startpoint heldAtFirstRsr(Context from, Context to, CountDownLatch release, AtomicLong received) {
        return in(from, to.createEndpoint().register(1, (e, m) -> {
            if (received.incrementAndGet() == 1) {
                release.await(60, TimeUnit.SECONDS);
            }
        }).startpoint());
    }

    /** Where a stray write left a record of an impossible length: its ring offset, and the ring's size. */
    record Scribble(int index, int capacity) {}

    /**
     * Claims space at the tail of an inbox's ring with a compare-and-set, as a producer does, then
     * commits a record of an impossible length there, as a stray write could leave it. Claiming
     * keeps live producers out of the record, so the consumer reaches it however busy the ring is.
     */
    static Scribble scribble(Path inbox) throws IOException {
        VarHandle atomic = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());
        try (FileChannel channel = FileChannel.open(inbox, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            MappedByteBuffer map = channel.map(FileChannel.MapMode.READ_WRITE, 0, channel.size());
            map.order(ByteOrder.nativeOrder());
            int ring = InboxLayout.ringOffset(map.getInt(InboxLayout.SLOT_COUNT_OFFSET));
            int capacity = map.getInt(InboxLayout.RING_CAPACITY_OFFSET);
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (System.nanoTime() < deadline) {
                long tail = (long) atomic.getVolatile(map, InboxLayout.TAIL_OFFSET);
                int index = (int) (tail & (capacity - 1));
                long claim = Math.min(64, capacity - index);
                boolean room = tail + claim - (long) atomic.getVolatile(map, InboxLayout.HEAD_OFFSET) <= capacity;
                if (room && atomic.compareAndSet(map, InboxLayout.TAIL_OFFSET, tail, tail + claim)) {
                    atomic.setRelease(map, ring + index, InboxLayout.header(InboxLayout.TYPE_DATA, 3, 0, capacity));
                    return new Scribble(index, capacity);
                }
                Thread.onSpinWait();
            }
            throw new AssertionError("no room to claim in " + inbox + " within 10 s: its consumer took nothing");
        }
    }

    /** @return the stack the first target of {@code s} is on */
    static String chosen(Startpoint s) {
        return s.explain().get(0).chosen().orElseThrow().descriptor().stack();
    }

    /** Closes every context, then checks that their threads ended and their files went. */
    @Override
    public void afterEach(ExtensionContext test) throws IOException {
        try {
            contexts.forEach(EmbeddedContext::close);
            contexts.clear();
            methods.clear();
            Await.until(() -> Await.threads("polylink-").isEmpty(), Duration.ofSeconds(10),
                () -> "threads left: " + Await.threads("polylink-"));
            assertEquals(List.of(), files(), "a clean shutdown leaves no files");
        } finally {
            try (Stream<Path> all = Files.walk(directory)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
