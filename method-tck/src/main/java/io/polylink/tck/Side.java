package io.polylink.tck;

import io.polylink.ContextId;
import io.polylink.spi.CommunicationMethod;
import io.polylink.spi.Connection;
import io.polylink.spi.FrameReceiver;
import io.polylink.spi.HostIdentity;
import io.polylink.spi.InboundSink;
import io.polylink.spi.MethodContext;
import io.polylink.spi.ProblemLog;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/**
 * One side of a test: an instance of the method under test, started in a context of the kit's own
 * that plays the core's part. It has an id, gives the method {@link MethodUnderTest#CONTEXT_FRAME}
 * as the largest frame, and records each connection the method announces with a
 * {@link RecordingReceiver}. Both sides of a test say they run on one host.
 */
final class Side implements MethodContext, InboundSink, AutoCloseable {

    private static final HostIdentity HOST = HostIdentity.named("polylink-tck");
    private static final System.Logger LOG = System.getLogger("io.polylink.tck");

    final CommunicationMethod method;
    private final ContextId id = ContextId.random();
    private final List<RecordingReceiver> opened = new CopyOnWriteArrayList<>();
    private volatile Predicate<byte[]> malformed = frame -> false;

    Side(CommunicationMethod method) {
        this.method = method;
    }

    /** @throws AssertionError saying why if the method does not start */
    Side start() {
        try {
            method.start(this);
        } catch (Exception e) {
            throw new AssertionError("method " + method.name() + " did not start: " + e, e);
        }
        return this;
    }

    /** @return a connection from this side to {@code to}, as the core asks for one */
    Connection connect(Side to) {
        return method.connect(to.id, to.method.localAddress(), Map.of());
    }

    /** Connections announced from now on refuse the frames {@code test} picks, as malformed. */
    void refuse(Predicate<byte[]> test) {
        malformed = test;
    }

    /** @return the receiver of the connection the method announced for {@code connection} */
    RecordingReceiver receiverOf(Connection connection, Duration limit) {
        return awaitReceiver(r -> r.connection == connection, limit, "for " + connection);
    }

    /**
     * @return the receiver of the first connection to {@code from} announced after {@code skip}
     *     others, once the method announced it
     */
    RecordingReceiver awaitFrom(Side from, int skip, Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            List<RecordingReceiver> fromPeer = opened.stream().filter(r -> r.connection.peer().equals(from.id)).toList();
            if (fromPeer.size() > skip) {
                return fromPeer.get(skip);
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("method " + method.name() + " at " + id + " announced no connection from "
                    + from.id + " within " + limit + "; it announced: " + opened.stream()
                    .map(r -> r.connection.peer() + " (" + r.connection + ")").toList());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    private RecordingReceiver awaitReceiver(Predicate<RecordingReceiver> which, Duration limit, String what) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            for (RecordingReceiver r : opened) {
                if (which.test(r)) {
                    return r;
                }
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("method " + method.name() + " announced no connection " + what + " within "
                    + limit + " (InboundSink.open is called once per connection, whichever side opened it)");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    /**
     * @return the receiver of a connection from {@code from} that got a frame of {@code stream},
     *     once one did: the connection a frame arrives on, where a method that cannot hear of a
     *     peer's close keeps using its old one
     */
    RecordingReceiver awaitStream(Side from, int stream, Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            for (RecordingReceiver r : opened) {
                if (r.connection.peer().equals(from.id)
                    && r.frames().stream().anyMatch(f -> Frames.check(f).stream() == stream)) {
                    return r;
                }
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("no frame of stream " + stream + " from " + from.id + " arrived at "
                    + method.name() + " within " + limit);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    /** @return how many connections from {@code from} the method announced so far */
    int announcedFrom(Side from) {
        return (int) opened.stream().filter(r -> r.connection.peer().equals(from.id)).count();
    }

    @Override
    public FrameReceiver open(Connection connection) {
        RecordingReceiver r = new RecordingReceiver(connection, malformed);
        opened.add(r);
        return r;
    }

    @Override
    public ContextId contextId() {
        return id;
    }

    @Override
    public InboundSink inbound() {
        return this;
    }

    @Override
    public int maxFrameSize() {
        return MethodUnderTest.CONTEXT_FRAME;
    }

    @Override
    public ProblemLog problems() {
        return new ProblemLog() {
            @Override
            public void warn(String kind, String message, Throwable cause) {
                LOG.log(Level.WARNING, message, cause);
            }

            @Override
            public void warn(String kind, int perSecond, String message, Throwable cause) {
                warn(kind, message, cause);
            }
        };
    }

    @Override
    public HostIdentity host() {
        return HOST;
    }

    /** Stops the method; a receiver still stalled is let go first. */
    @Override
    public void close() {
        opened.forEach(RecordingReceiver::release);
        method.stop();
    }

    @Override
    public String toString() {
        return method.name() + " at " + id;
    }
}
