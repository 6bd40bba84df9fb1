package io.polylink.example.udp.internal;

import io.polylink.ContextId;
import io.polylink.LinkException;
import io.polylink.Statistics;
import io.polylink.spi.Applicability;
import io.polylink.spi.CommunicationMethod;
import io.polylink.spi.Connection;
import io.polylink.spi.MethodContext;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.osgi.service.component.annotations.Component;

/**
 * An example method written against {@code io.polylink.spi} alone: frames as UDP datagrams on the
 * loopback interface, one socket per context, one receiving thread ({@code polylink-udp-receiver}).
 *
 * <p>Limits, honestly: a frame must fit one datagram ({@value UdpConnection#MAX_FRAME} bytes with
 * the core's header), and UDP may drop a datagram (on loopback, when the receiver's socket buffer
 * overflows). A dropped datagram is a lost RSR until the core's per-link sequence numbers and
 * acknowledgements replay it; the method itself stays simple, as DESIGN.md wants.
 */
@Component(service = CommunicationMethod.class, property = {
    CommunicationMethod.NAME_PROPERTY + "=" + UdpMethod.NAME,
    CommunicationMethod.PREFERENCE_PROPERTY + ":Integer=70"})
public final class UdpMethod implements CommunicationMethod {

    static final String NAME = "udp";
    private static final System.Logger LOG = System.getLogger("io.polylink.example.udp");
    /** Asked of the kernel so bursts on loopback are not dropped; it may grant less. */
    private static final int RECEIVE_BUFFER = 4 << 20;

    private final Map<ContextId, UdpConnection> peers = new ConcurrentHashMap<>();
    private final AtomicLong badDatagrams = new AtomicLong();
    private final AtomicLong lastWarning = new AtomicLong(System.nanoTime() - TimeUnit.SECONDS.toNanos(2));
    private volatile MethodContext context;
    private volatile DatagramChannel channel;
    private volatile Thread receiver;
    private volatile byte[] localAddress;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public synchronized void start(MethodContext context) throws IOException {
        this.context = context;
        DatagramChannel ch = DatagramChannel.open(StandardProtocolFamily.INET);
        try {
            ch.setOption(StandardSocketOptions.SO_RCVBUF, RECEIVE_BUFFER);
            ch.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        } catch (IOException e) {
            ch.close();
            throw e;
        }
        channel = ch;
        localAddress = UdpAddress.encode((InetSocketAddress) ch.getLocalAddress());
        receiver = new Thread(() -> receive(ch), "polylink-udp-receiver");
        receiver.setDaemon(true);
        receiver.start();
    }

    @Override
    public synchronized void stop() {
        DatagramChannel ch = channel;
        if (ch == null) {
            return;
        }
        channel = null;
        try {
            ch.close();   // ends the blocking receive
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "closing the udp socket: " + e.getMessage());
        }
        try {
            receiver.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List.copyOf(peers.values()).forEach(UdpConnection::close);
    }

    @Override
    public byte[] localAddress() {
        return localAddress.clone();
    }

    @Override
    public Applicability applicable(ContextId peer, byte[] address) {
        InetSocketAddress target;
        try {
            target = UdpAddress.decode(address);
        } catch (IllegalArgumentException e) {
            return Applicability.no(e.getMessage());
        }
        return target.getAddress().isLoopbackAddress()
            ? Applicability.yes("loopback datagrams")
            : Applicability.no("the udp example reaches loopback only, not " + UdpAddress.describe(address));
    }

    @Override
    public Connection connect(ContextId peer, byte[] address, Map<String, String> parameters) {
        if (!parameters.isEmpty()) {
            throw new LinkException("the udp method takes no parameters, not " + parameters.keySet());
        }
        InetSocketAddress target;
        try {
            target = UdpAddress.decode(address);
        } catch (IllegalArgumentException e) {
            throw new LinkException("cannot reach " + peer + " by udp: " + e.getMessage());
        }
        return connection(peer, target);
    }

    /** The one connection to {@code peer}, opened (and announced to the core) on first need. */
    private synchronized UdpConnection connection(ContextId peer, InetSocketAddress target) {
        DatagramChannel ch = channel;
        if (ch == null) {
            throw new LinkException("the udp method is stopped");
        }
        UdpConnection c = peers.get(peer);
        if (c != null && c.isOpen() && c.target().equals(target)) {
            return c;
        }
        if (c != null) {
            c.close();
        }
        c = new UdpConnection(this, ch, context.contextId(), peer, target,
            Math.min(UdpConnection.MAX_FRAME, context.maxFrameSize()));
        peers.put(peer, c);
        c.receiver(context.inbound().open(c));
        return c;
    }

    void forget(UdpConnection connection) {
        peers.remove(connection.peer(), connection);
    }

    private void receive(DatagramChannel ch) {
        ByteBuffer datagram = ByteBuffer.allocateDirect(65_536);
        while (true) {
            datagram.clear();
            SocketAddress from;
            try {
                from = ch.receive(datagram);
            } catch (ClosedChannelException stopped) {
                return;
            } catch (IOException e) {
                LOG.log(Level.WARNING, "udp receive failed; the udp method stops receiving: " + e.getMessage());
                return;
            }
            datagram.flip();
            if (datagram.remaining() < UdpConnection.HEADER || datagram.get(0) != UdpConnection.VERSION) {
                bad("datagram of " + datagram.remaining() + " bytes from " + from + " is not a udp frame of "
                    + "version " + UdpConnection.VERSION);
                continue;
            }
            ContextId sender = new ContextId(datagram.getLong(1), datagram.getLong(9));
            datagram.position(UdpConnection.HEADER);
            if (datagram.remaining() > context.maxFrameSize()) {
                bad("frame of " + datagram.remaining() + " bytes from " + sender + " exceeds " + context.maxFrameSize());
                continue;
            }
            try {
                UdpConnection c = peers.get(sender);
                if (c == null || !c.isOpen()) {
                    c = connection(sender, (InetSocketAddress) from);
                }
                c.deliver(datagram);
            } catch (RuntimeException e) {
                bad("frame from " + sender + " dropped: " + e);
            }
        }
    }

    /** Counts and logs a bad datagram, at most one line a second: garbage must not flood the log. */
    private void bad(String what) {
        badDatagrams.incrementAndGet();
        long now = System.nanoTime();
        long last = lastWarning.get();
        if (now - last > TimeUnit.SECONDS.toNanos(1) && lastWarning.compareAndSet(last, now)) {
            LOG.log(Level.WARNING, what + " (" + badDatagrams.get() + " bad datagrams so far)");
        }
    }

    @Override
    public String describe(byte[] address) {
        return UdpAddress.describe(address);
    }

    @Override
    public Statistics statistics() {
        Statistics sum = new Statistics(0, 0, 0, 0, badDatagrams.get());
        for (UdpConnection c : peers.values()) {
            sum = sum.plus(c.statistics());
        }
        return sum;
    }
}
