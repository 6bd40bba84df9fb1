package io.polylink.core.internal.channel;

import io.polylink.ContextId;
import io.polylink.Descriptor;
import io.polylink.LinkException;
import io.polylink.MalformedMessageException;
import io.polylink.MessageTooLargeException;
import io.polylink.core.internal.buffer.MessageBufferImpl;
import io.polylink.core.internal.buffer.ScratchBuffer;
import io.polylink.core.internal.concurrent.ControlSender;
import io.polylink.core.internal.concurrent.RetryTimer;
import io.polylink.core.internal.endpoint.EndpointImpl;
import io.polylink.core.internal.endpoint.Endpoints;
import io.polylink.core.internal.observe.Problems;
import io.polylink.core.internal.registry.Installed;
import io.polylink.core.internal.config.RequiredStacks;
import io.polylink.core.internal.wire.Acknowledgement;
import io.polylink.core.internal.wire.ControlFrame;
import io.polylink.core.internal.wire.EncodedTable;
import io.polylink.core.internal.wire.FrameHeader;
import io.polylink.core.internal.wire.Handshake;
import io.polylink.core.internal.wire.StackAnnouncement;
import io.polylink.core.internal.wire.StackRefusal;
import io.polylink.core.internal.wire.TableCodec;
import io.polylink.core.internal.wire.TableResolver;
import io.polylink.core.internal.wire.WireInput;
import io.polylink.spi.Connection;
import io.polylink.spi.FrameReceiver;
import io.polylink.spi.TransformSession;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What one channel receives: each frame the method hands over is checked, untransformed through
 * the sessions of the stack the peer announced for it, and either taken as a control frame or
 * admitted to its flow ({@link InboundFlow}) and delivered to its endpoint. Runs on the method's
 * receiving thread, one frame at a time; acknowledgements alone may come on any thread
 * ({@link #offerAside}).
 *
 * <p>A frame that breaks the protocol, or that anything on the way throws at, is refused: the
 * context logs why, the method closes the connection, and the peer's flows move and send again.
 * A stack the context does not accept from this peer ({@link RequiredStacks}, a transform not
 * installed here) is refused in band as it is announced: the peer is told, its frames on it are
 * dropped and counted, never delivered, and the connection stays for its other stacks.
 */
public final class ChannelReceiver implements FrameReceiver {

    private static final int MAX_STACK_ID = 255;
    /** Sessions of a stack this side refused: its frames are dropped. */
    private static final TransformSession[] REFUSED = new TransformSession[0];

    /**
     * The transforms and flow the peer announced under one stack id; sessions {@code null} until
     * resolved.
     */
    private record ReceiveStack(String transforms, List<String> names, TransformSession[] sessions,
                                InboundFlow flow, AckLane.Slot ack) {}

    private final PeerChannel channel;
    private final Connection connection;
    private final ChannelSender sender;
    private final TransformSessions sessions;
    private final ContextId self;
    private final Installed installed;
    private final Endpoints endpoints;
    private final OutboundFlows flows;
    private final InboundFlows inbound;
    private final ControlSender controlSender;
    private final RetryTimer timer;
    private final Problems problems;
    /** The channels, whose {@code quietAckMs} may change while this channel is open. */
    private final PeerChannels owner;
    private final int maxWirePayload;
    private final int maxMessageSize;
    private final MessageBufferImpl reader;
    private final ByteBuffer authenticated = ByteBuffer.allocate(FrameHeader.MAX_LENGTH);
    private final ScratchBuffer[] decodeScratch;
    private final ReceiveStack[] stacks = new ReceiveStack[MAX_STACK_ID + 1];
    /**
     * The tables the peer sent, replaced whole, never changed in place: a message handed to an
     * executor handler resolves its startpoints, on another thread, against the tables it arrived
     * with, whatever the peer sends after it.
     */
    private Map<Long, EncodedTable> tables = Map.of();
    private TableResolver resolver = TableResolver.NONE;
    /** Bytes of {@link #tables}, bounded by {@link ChannelSender#MAX_TABLE_BYTES}. */
    private int tableBytes;
    /** Whether the peer was told that this side refuses RSRs without a stack; on the receiving thread only. */
    private boolean plainRefusalSent;
    /**
     * Why the peer refused each stack this side announced, until the control thread acts on it:
     * however many refusals the peer sends, one task at a time. Guarded by itself.
     */
    private final String[] peerRefusals = new String[MAX_STACK_ID + 1];
    private boolean peerRefusalsScheduled;
    /**
     * The flow the last acknowledgement received named, so that a steady stream of them looks
     * nothing up (the lookup boxes its key); on the receiving thread only.
     */
    private OutboundFlows.Acknowledged acknowledgedFlow;
    /** This side refused a frame, and so the method closes the connection: see {@link #onFrame}. */
    private volatile boolean refusedFrame;

    ChannelReceiver(PeerChannel channel, ChannelSender sender, TransformSessions sessions, PeerChannels owner) {
        this.channel = channel;
        this.connection = channel.connection();
        this.sender = sender;
        this.sessions = sessions;
        this.self = owner.self;
        this.installed = owner.installed;
        this.endpoints = owner.endpoints;
        this.flows = owner.flows;
        this.inbound = owner.inbound;
        this.controlSender = owner.controlSender;
        this.timer = owner.timer;
        this.problems = owner.problems;
        this.owner = owner;
        this.maxWirePayload = owner.maxWirePayload;
        this.maxMessageSize = owner.maxMessageSize;
        this.reader = owner.buffers.reader();
        this.decodeScratch = new ScratchBuffer[] {
            new ScratchBuffer(maxWirePayload, "decoded frame"), new ScratchBuffer(maxWirePayload, "decoded frame")};
    }

    @Override
    public boolean onFrame(ByteBuffer frame) {
        try {
            receive(frame);
            return true;
        } catch (MalformedMessageException | MessageTooLargeException | LinkException e) {
            refused(e, null);
        } catch (RuntimeException e) {
            refused(new MalformedMessageException("transform failed on a frame: " + e, e), null);
        } catch (Throwable t) {
            // A transform or the method's buffer broke (an Error): this connection goes, never the thread.
            refused(new LinkException("receiving a frame threw " + t, t), t);
        }
        return false;
    }

    /**
     * Takes acknowledgements on any thread: one only moves its flow's counter and wakes a sender
     * waiting for room, and needs none of the receiving thread's state. Everything else waits
     * for that thread, malformed acknowledgements too, so they are refused there.
     */
    @Override
    public boolean offerAside(ByteBuffer frame) {
        if (!Acknowledgement.isAcknowledgement(frame)) {
            return false;
        }
        OutboundFlows.Acknowledged flow = flows.find(connection.peer(), Acknowledgement.flowOfFrame(frame));
        if (flow != null) {
            flow.acknowledged(Acknowledgement.sequenceOfFrame(frame));
        }
        return true;
    }

    @Override
    public void onClosed(Throwable cause) {
        // A close that follows a refused frame was logged, with its reason, when the frame was.
        channel.closed(cause, refusedFrame);
    }

    private void refused(RuntimeException why, Throwable trace) {
        refusedFrame = true;
        channel.badFrame(why, trace);
    }

    private void receive(ByteBuffer frame) {
        int start = frame.position();
        int headerLength = FrameHeader.validate(frame, maxWirePayload);
        int flags = FrameHeader.flags(frame);
        int stackId = FrameHeader.stackId(frame);
        int handler = FrameHeader.handler(frame);
        int endpoint = FrameHeader.endpoint(frame);
        int sequence = (flags & FrameHeader.FLAG_SEQUENCED) != 0 ? FrameHeader.sequence(frame) : 0;
        ByteBuffer body = frame.position(start + headerLength);
        if (stackId != 0) {
            body = untransform(frame, start, headerLength, stackId, body);
            if (body == null) {
                return;
            }
        }
        if (body.remaining() > maxMessageSize) {
            throw new MalformedMessageException("frame decodes to " + body.remaining()
                + " bytes, the maximum message size is " + maxMessageSize);
        }
        if ((flags & FrameHeader.FLAG_CONTROL) != 0) {
            control(handler, body);
            return;
        }
        if ((flags & FrameHeader.FLAG_SEQUENCED) == 0) {
            if (stackId != 0 || plainAccepted()) {
                deliver(endpoint, handler, body);
            }
            return;
        }
        ReceiveStack received = stackId == 0 ? null : stacks[stackId];
        InboundFlow flow = received == null ? null : received.flow();
        if (flow == null) {
            throw new MalformedMessageException("sequenced RSR on stack " + stackId + ", which names no flow");
        }
        boolean ack = (flags & FrameHeader.FLAG_ACK_REQUEST) != 0;
        synchronized (flow) {
            boolean fresh = flow.admit(sequence);
            if (ack) {
                // Queued before an inline handler runs, so a reply it sends on this channel
                // carries the acknowledgement out ahead of it, with no control-thread wake-up.
                flow.acknowledgeDelivered();
                sender.requestAck(received.ack());
            } else if (fresh && owner.quietAckMs > 0 && received.ack().quietCheckNeeded()) {
                checkQuietLater(received.ack());
            }
            if (fresh) {
                deliver(endpoint, handler, body);
            }
        }
        if (ack) {
            sender.flushFromReceiver();
        }
    }

    /** Out of {@link #receive}, which runs per RSR: its lambda stays out of the hot method's code. */
    private void checkQuietLater(AckLane.Slot slot) {
        timer.later(() -> acknowledgeIfQuiet(slot), owner.quietAckMs);
    }

    /**
     * On the retry thread: acknowledges what a flow delivered since its last acknowledgement once
     * no RSR came for {@link PeerChannels#quietAckMs}. The sender asks only every so many RSRs or bytes, and
     * would otherwise keep the copies of a burst's tail for as long as the flow stays idle.
     */
    private void acknowledgeIfQuiet(AckLane.Slot slot) {
        InboundFlow flow = slot.flow;
        // While RSRs flow, this only reads a counter: taking the flow's lock from this thread
        // every time would make the receiving thread's lock a contended one.
        if (!channel.isClosed() && slot.busySinceCheck()) {
            checkQuietLater(slot);
            return;
        }
        boolean owed = false;
        synchronized (flow) {
            slot.quietCheckDone();
            if (!channel.isClosed() && flow.unacknowledged()) {
                flow.acknowledgeDelivered();
                owed = true;
            }
        }
        if (owed) {
            sender.requestAck(slot);
            sender.flushLater();
        }
    }

    /**
     * An RSR on no stack at all, which this core never sends but a peer may: accepted unless this
     * context requires a stack of its peer. The verdict is the channel's, made when the peer said
     * where it runs.
     */
    private boolean plainAccepted() {
        String why = channel.plainRefusal();
        if (why == null) {
            return true;
        }
        if (!plainRefusalSent) {
            plainRefusalSent = true;
            sender.enqueue(ControlFrame.REFUSED, new StackRefusal(0, why).encode());
        }
        problems.error("frame refused", "RSR without a stack from " + connection.peer() + " over "
            + connection.method() + " dropped: " + why);
        return false;
    }

    private void deliver(int endpoint, int handler, ByteBuffer body) {
        EndpointImpl target = endpoints.get(endpoint);
        if (target == null) {
            endpoints.unknown(connection.peer(), connection.method(), endpoint, handler);
            return;
        }
        target.deliver(handler, reader.wrap(body, body.position(), body.remaining(), resolver));
    }

    private ByteBuffer untransform(ByteBuffer frame, int start, int headerLength, int stackId, ByteBuffer body) {
        ReceiveStack stack = stacks[stackId];
        if (stack == null) {
            throw new MalformedMessageException("frame uses stack id " + stackId
                + ", which the peer never announced");
        }
        if (stack.sessions() == null) {
            stack = resolve(stackId, stack);
        }
        if (stack.sessions() == REFUSED) {
            problems.error("frame refused", "frame on refused stack '" + stackName(stack) + "' from "
                + connection.peer() + " dropped");
            return null;
        }
        if (stack.names().isEmpty()) {
            return body;
        }
        authenticated.clear().put(0, frame, start, headerLength - 4).limit(headerLength - 4);
        TransformSession[] chain = stack.sessions();
        for (int i = chain.length - 1; i >= 0; i--) {
            body = chain[i].decode(authenticated.position(0), body, decodeScratch[i & 1]);
        }
        return body;
    }

    private void control(int code, ByteBuffer body) {
        ControlFrame control = ControlFrame.of(code);
        if (control == null) {
            throw new MalformedMessageException("control frame of unknown kind " + code);
        }
        switch (control) {
            case TABLE -> table(body);
            case STACK -> announced(StackAnnouncement.read(body));
            case TABLE_RESET -> {
                tables = Map.of();
                tableBytes = 0;
                resolver = TableResolver.NONE;
            }
            case HANDSHAKE -> handshake(body);
            case ACK -> acknowledged(body);
            case REFUSED -> peerRefused(StackRefusal.read(body));
        }
    }

    private void table(ByteBuffer body) {
        if (tables.size() >= ChannelSender.MAX_TABLES || tableBytes + body.remaining() > ChannelSender.MAX_TABLE_BYTES) {
            throw new MalformedMessageException("peer announced more than " + ChannelSender.MAX_TABLES
                + " descriptor tables or " + ChannelSender.MAX_TABLE_BYTES + " bytes of them without a reset");
        }
        EncodedTable table = TableCodec.read(body);
        if (!tables.containsKey(table.id())) {
            Map<Long, EncodedTable> next = new HashMap<>(tables);
            next.put(table.id(), table);
            tables = next;
            tableBytes += table.bytes().length;
            resolver = next::get;
        }
    }

    private void acknowledged(ByteBuffer body) {
        Acknowledgement.check(body);
        long id = Acknowledgement.flow(body);
        OutboundFlows.Acknowledged flow = acknowledgedFlow;
        if (flow == null || flow.id() != id || flow.retired()) {
            flow = flows.find(connection.peer(), id);
            acknowledgedFlow = flow;
        }
        if (flow != null) {
            flow.acknowledged(Acknowledgement.sequence(body));
        }
    }

    /**
     * The peer refused a stack this side announced. Not on this receiving thread: forgetting the
     * stack takes the send lock. A refusal already waiting for the control thread is not asked
     * for again, so a peer repeating refusals holds at most one reason per stack id here.
     */
    private void peerRefused(StackRefusal refusal) {
        synchronized (peerRefusals) {
            peerRefusals[refusal.stackId()] = refusal.why();
            if (peerRefusalsScheduled) {
                return;
            }
            peerRefusalsScheduled = true;
        }
        controlSender.schedule(this::actOnPeerRefusals);
    }

    /** On the control thread: the sender forgets each refused stack it had, and the flows on it move. */
    private void actOnPeerRefusals() {
        String[] refused;
        synchronized (peerRefusals) {
            refused = peerRefusals.clone();
            Arrays.fill(peerRefusals, null);
            peerRefusalsScheduled = false;
        }
        for (int stackId = 0; stackId < refused.length; stackId++) {
            if (refused[stackId] != null && sender.refused(stackId)) {
                flows.refused(channel, stackId, refused[stackId]);
            }
        }
    }

    private void handshake(ByteBuffer body) {
        byte[] name = Handshake.readTransform(body);
        String transform = new String(name, StandardCharsets.US_ASCII);
        if (!Descriptor.validName(transform) || installed.transform(transform) == null) {
            throw new MalformedMessageException("handshake for transform '" + WireInput.printable(name)
                + "', which is not installed here");
        }
        sessions.open(transform).onHandshake(body);
        sender.flushLater(); // a session may answer in band, before this side's next frame
    }

    /**
     * Learns what a stack id stands for, and decides at once whether this context accepts RSRs on
     * it from this peer: never per frame.
     */
    private void announced(StackAnnouncement announced) {
        int id = announced.stackId();
        if (id == 0 || stacks[id] != null) {
            throw new MalformedMessageException("stack id " + id + " announced twice or reserved");
        }
        channel.peerSays(announced.origin());
        InboundFlow flow = inbound.carry(new InboundFlow.Key(connection.peer(), announced.flow()),
            announced.firstSequence());
        ReceiveStack stack = new ReceiveStack(announced.transforms(), announced.names(), null, flow,
            flow == null ? null : new AckLane.Slot(flow));
        stacks[id] = stack;
        String why = flow == null ? connection.peer() + " has " + InboundFlows.PER_PEER + " flows open here already"
            : installed.required().refusal(connection.method(), announced.names(), channel.said());
        if (why != null) {
            refuse(id, stack, why);
        }
    }

    /**
     * Opens the sessions of a received stack, now or again after a transform came back. A stack
     * this context does not accept from the peer, or with a transform not installed here or that
     * will not serve this peer, is refused.
     */
    private ReceiveStack resolve(int id, ReceiveStack stack) {
        String why = installed.required().refusal(connection.method(), stack.names(), channel.said());
        TransformSession[] chain = new TransformSession[stack.names().size()];
        for (int i = 0; why == null && i < chain.length; i++) {
            String name = stack.names().get(i);
            if (installed.transform(name) == null) {
                why = "transform " + name + " is not installed at " + self;
            } else {
                try {
                    chain[i] = sessions.open(name);
                } catch (LinkException e) {
                    why = e.getMessage();
                }
            }
        }
        if (why != null) {
            return refuse(id, stack, why);
        }
        ReceiveStack resolved = new ReceiveStack(stack.transforms(), stack.names(), chain, stack.flow(), stack.ack());
        stacks[id] = resolved;
        return resolved;
    }

    /**
     * Refuses a stack in band: the peer is told (it moves the flow to another stack and sends its
     * RSRs again), frames on it are dropped, and the connection stays for its other stacks.
     */
    private ReceiveStack refuse(int id, ReceiveStack stack, String why) {
        ReceiveStack refused = new ReceiveStack(stack.transforms(), stack.names(), REFUSED, stack.flow(), stack.ack());
        stacks[id] = refused;
        problems.error("stack refused", "refusing stack '" + stackName(stack) + "' on " + channel + ": " + why
            + "; the peer moves its link to another stack");
        sender.enqueue(ControlFrame.REFUSED, new StackRefusal(id, why).encode());
        return refused;
    }

    private String stackName(ReceiveStack stack) {
        return stack.transforms().isEmpty() ? connection.method() : stack.transforms() + "/" + connection.method();
    }

    /** Makes the stacks with a departed transform resolve again should it return. */
    void forget(String transform) {
        for (int i = 1; i < stacks.length; i++) {
            ReceiveStack stack = stacks[i];
            if (stack != null && stack.names().contains(transform)) {
                stacks[i] = new ReceiveStack(stack.transforms(), stack.names(), null, stack.flow(), stack.ack());
            }
        }
    }

    /** The channel is gone: the flows it carried are idle, unless another channel carries them. */
    void release() {
        for (ReceiveStack stack : stacks) {
            if (stack != null && stack.flow() != null) {
                inbound.release(stack.flow());
            }
        }
    }

    /**
     * On an orderly close of this context: tells the peer what this channel's flows delivered, so
     * it neither keeps those RSRs to send again nor warns that they went unacknowledged. Never
     * waits: what the connection does not take at once is left to the peer's retries.
     */
    void acknowledgeDelivered() {
        for (ReceiveStack stack : stacks) {
            InboundFlow flow = stack == null ? null : stack.flow();
            if (flow != null) {
                boolean owed;
                synchronized (flow) {
                    owed = flow.unacknowledged();
                    if (owed) {
                        flow.acknowledgeDelivered();
                    }
                }
                if (owed) {
                    sender.requestAck(stack.ack());
                }
            }
        }
        sender.flushFromReceiver();
    }
}
