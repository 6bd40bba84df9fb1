package io.polylink.testkit;

import io.polylink.ContextId;
import io.polylink.Statistics;
import io.polylink.spi.Applicability;
import io.polylink.spi.CommunicationMethod;
import io.polylink.spi.Connection;
import io.polylink.spi.InboundSink;
import io.polylink.spi.HostIdentity;
import io.polylink.spi.MethodContext;
import io.polylink.spi.ProblemLog;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * A method that wraps another under the same name and keeps a copy of every frame the core hands
 * it, so a test can read what went on the wire, and change one frame on its way.
 *
 * <p>Each of the inner method's connections gets exactly one wrapper, whether the core met it
 * through {@code connect} or through the inbound sink, so the core keeps one channel per
 * connection as it would without the tap.
 */
public final class WireTap implements CommunicationMethod {

    /** What to change in the next frame that matches. */
    private record Tamper(Predicate<byte[]> which, UnaryOperator<byte[]> how) {}

    private final CommunicationMethod inner;
    private final Map<Connection, Tapped> tapped = Collections.synchronizedMap(new IdentityHashMap<>());
    private final AtomicReference<Tamper> tamper = new AtomicReference<>();
    /** Every frame handed to the wrapped method, in order. */
    public final List<byte[]> sent = new CopyOnWriteArrayList<>();
    private final Map<byte[], String> stackOf = Collections.synchronizedMap(new IdentityHashMap<>());
    private static final int CONTROL = 0x1;
    private static final int SEQUENCED = 0x2;
    private static final int STACK_ANNOUNCEMENT = 2;

    /** @param inner the method whose traffic to record */
    public WireTap(CommunicationMethod inner) {
        this.inner = inner;
    }

    /**
     * @return the transforms ('+'-joined, empty for none) of an RSR frame's stack, as announced on
     *     its connection, or {@code null} for a control frame
     */
    public String transforms(byte[] frame) {
        return stackOf.get(frame);
    }

    /** @return where the payload of a frame starts: after the sequence number if it has one */
    public static int headerLength(byte[] frame) {
        return (frame[0] & SEQUENCED) != 0 ? 16 : 12;
    }

        /** Changes the next frame {@code which} accepts with {@code how}; once. */
    public void tamperNext(Predicate<byte[]> which, UnaryOperator<byte[]> how) {
        tamper.set(new Tamper(which, how));
    }

    /** @return whether {@code needle} occurs in any frame sent so far */
    public boolean sentContains(byte[] needle) {
        for (byte[] frame : sent) {
            outer:
            for (int i = 0; i + needle.length <= frame.length; i++) {
                for (int j = 0; j < needle.length; j++) {
                    if (frame[i + j] != needle[j]) {
                        continue outer;
                    }
                }
                return true;
            }
        }
        return false;
    }

    /** @return how many of the connections the core met through this tap are open */
    public long openConnections() {
        synchronized (tapped) {
            return tapped.values().stream().filter(Tapped::isOpen).count();
        }
    }

    private Connection tap(Connection c) {
        return tapped.computeIfAbsent(c, Tapped::new);
    }

    @Override
    public String name() {
        return inner.name();
    }

    @Override
    public void start(MethodContext context) throws Exception {
        InboundSink sink = connection -> context.inbound().open(tap(connection));
        inner.start(new MethodContext() {
            @Override
            public ContextId contextId() {
                return context.contextId();
            }

            @Override
            public InboundSink inbound() {
                return sink;
            }

            @Override
            public int maxFrameSize() {
                return context.maxFrameSize();
            }

            @Override
            public ProblemLog problems() {
                return context.problems();
            }

            @Override
            public HostIdentity host() {
                return context.host();
            }
        });
    }

    @Override
    public void stop() {
        inner.stop();
    }

    @Override
    public byte[] localAddress() {
        return inner.localAddress();
    }

    @Override
    public Applicability applicable(ContextId peer, byte[] address) {
        return inner.applicable(peer, address);
    }

    @Override
    public Connection connect(ContextId peer, byte[] address, Map<String, String> parameters) {
        return tap(inner.connect(peer, address, parameters));
    }

    @Override
    public String describe(byte[] address) {
        return inner.describe(address);
    }

    @Override
    public Statistics statistics() {
        return inner.statistics();
    }

    private final class Tapped implements Connection {
        private final Connection inner;
        private final Map<Integer, String> stacks = new ConcurrentHashMap<>();

        Tapped(Connection inner) {
            this.inner = inner;
        }

        @Override
        public ContextId peer() {
            return inner.peer();
        }

        @Override
        public String method() {
            return inner.method();
        }

        @Override
        public void send(ByteBuffer header, ByteBuffer payload) {
            int headerLength = header.remaining();
            byte[] frame = new byte[headerLength + payload.remaining()];
            header.duplicate().get(frame, 0, headerLength);
            payload.duplicate().get(frame, headerLength, frame.length - headerLength);
            note(frame);
            sent.add(frame);
            Tamper t = tamper.get();
            if (t != null && t.which().test(frame) && tamper.compareAndSet(t, null)) {
                byte[] changed = t.how().apply(frame.clone());
                header.position(header.limit());
                payload.position(payload.limit());
                inner.send(ByteBuffer.wrap(changed, 0, headerLength),
                    ByteBuffer.wrap(changed, headerLength, changed.length - headerLength).slice());
                return;
            }
            inner.send(header, payload);
        }

        /**
         * Keeps what each stack id stands for: id, flow (8), first sequence (4), the announcer's
         * origin (host length, host, site length, site), then the names.
         */
        private void note(byte[] frame) {
            if ((frame[0] & CONTROL) == 0) {
                stackOf.put(frame, frame[1] == 0 ? "" : stacks.getOrDefault(frame[1] & 0xFF, "?"));
            } else if (frame[3] == STACK_ANNOUNCEMENT && frame[2] == 0 && frame.length >= 27) {
                int site = 26 + (frame[25] & 0xFF);
                int names = site + 1 + (frame[site] & 0xFF);
                stacks.put(frame[12] & 0xFF, new String(frame, names, frame.length - names,
                    StandardCharsets.US_ASCII));
            }
        }

        @Override
        public boolean isOpen() {
            return inner.isOpen();
        }

        @Override
        public Statistics statistics() {
            return inner.statistics();
        }

        @Override
        public void close() {
            inner.close();
        }

        /** The inner connection's name, which the core puts into log lines and errors. */
        @Override
        public String toString() {
            return inner.toString();
        }
    }
}
