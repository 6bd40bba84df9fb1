package io.polylink.example.udp.internal;

import io.polylink.ContextId;
import io.polylink.LinkException;
import io.polylink.Statistics;
import io.polylink.spi.Applicability;
import io.polylink.spi.CommunicationMethod;
import io.polylink.spi.Configuration;
import io.polylink.spi.Connection;
import io.polylink.spi.HostIdentity;
import io.polylink.spi.MethodContext;
import java.io.IOException;
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
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;

/**
 * An example method written against {@code io.polylink.spi} alone: frames as UDP datagrams on the
 * loopback interface, one socket per context, one receiving thread ({@code polylink-udp-receiver}).
 *
 * <p>What the SPI gives every method, it uses rather than copies: its settings are read through
 * {@link Configuration} (keys and defaults in {@link UdpConfig}), peers' garbage is logged through
 * the context's {@link io.polylink.spi.ProblemLog}, and the {@link HostIdentity} the core names
 * this host by travels in the address, since a loopback address reaches only its own host.
 *
 * <p>Limits, honestly: a frame must fit one datagram ({@value UdpConnection#MAX_FRAME} bytes with
 * the core's header), and UDP may drop a datagram (on loopback, when the receiver's socket buffer
 * overflows). A dropped datagram is a lost RSR until the core's per-link sequence numbers and
 * acknowledgements replay it; the method itself stays simple, as DESIGN.md wants.
 */
@Component(service = CommunicationMethod.class, configurationPid = UdpMethod.PID, property = {
    CommunicationMethod.NAME_PROPERTY + "=" + UdpMethod.NAME,
    CommunicationMethod.PREFERENCE_PROPERTY + ":Integer=70"})
public final class UdpMethod implements CommunicationMethod {

    static final String NAME = "udp";
    static final String PID = "io.polylink.example.udp";

    private final int receiveBufferBytes;
    private final Map<ContextId, UdpConnection> peers = new ConcurrentHashMap<>();
    private final AtomicLong badDatagrams = new AtomicLong();
    private volatile MethodContext context;
    private volatile DatagramChannel channel;
    private volatile Thread receiver;
    private volatile byte[] localAddress;

    /**
     * @param properties the configuration, keyed as {@link UdpConfig}; Declarative Services passes
     *     the component's properties
     * @throws io.polylink.spi.InvalidSettingException naming the key whose value cannot be used
     */
    @Activate
    public UdpMethod(Map<String, Object> properties) {
        UdpConfig config = Configuration.read(PID, UdpConfig.class, properties);
        receiveBufferBytes = (int) Configuration.requireRange(PID, "receiveBufferBytes", config.receiveBufferBytes(),
            1, Integer.MAX_VALUE);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public synchronized void start(MethodContext context) throws IOException {
        this.context = context;
        DatagramChannel ch = DatagramChannel.open(StandardProtocolFamily.INET);
        try {
            ch.setOption(StandardSocketOptions.SO_RCVBUF, receiveBufferBytes);
            ch.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        } catch (IOException e) {
            ch.close();
            throw e;
        }
        channel = ch;
        localAddress = new UdpAddress(context.host(), (InetSocketAddress) ch.getLocalAddress()).encode();
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
            // closed all the same
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
        UdpAddress there;
        try {
            there = UdpAddress.decode(address);
        } catch (IllegalArgumentException e) {
            return Applicability.no(e.getMessage());
        }
        HostIdentity here = context.host();
        if (!here.sameHost(there.host())) {
            return Applicability.no(here.difference(there.host()));
        }
        return there.socket().getAddress().isLoopbackAddress()
            ? Applicability.yes("loopback datagrams")
            : Applicability.no("the udp example reaches loopback only, not " + there.describe());
    }

    @Override
    public Connection connect(ContextId peer, byte[] address, Map<String, String> parameters) {
        if (!parameters.isEmpty()) {
            throw new LinkException("the udp method takes no parameters, not " + parameters.keySet());
        }
        UdpAddress there;
        try {
            there = UdpAddress.decode(address);
        } catch (IllegalArgumentException e) {
            throw new LinkException("cannot reach " + peer + " by udp: " + e.getMessage());
        }
        return connection(peer, there.socket());
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
                context.problems().warn("receive failed", "udp receive failed; the udp method stops receiving", e);
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

    /** Counts a bad datagram and logs it through the problem log, so garbage cannot flood the log. */
    private void bad(String what) {
        badDatagrams.incrementAndGet();
        context.problems().warn("bad datagram", what, null);
    }

    @Override
    public String describe(byte[] address) {
        try {
            return UdpAddress.decode(address).describe();
        } catch (IllegalArgumentException e) {
            return "malformed udp address (" + address.length + " bytes)";
        }
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
