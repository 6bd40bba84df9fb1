package io.polylink.method.shm.internal.connect;

import static io.polylink.method.shm.internal.segment.InboxLayout.STATE_CLOSED;
import static io.polylink.method.shm.internal.segment.InboxLayout.STATE_OPEN;

import io.polylink.ContextId;
import io.polylink.LinkException;
import io.polylink.method.shm.internal.liveness.Liveness;
import io.polylink.method.shm.internal.liveness.ReceiverWatch;
import io.polylink.method.shm.internal.ring.Outbox;
import io.polylink.method.shm.internal.segment.Segment;
import io.polylink.method.shm.internal.segment.SegmentException;
import io.polylink.method.shm.internal.segment.TrustedDirectories;
import io.polylink.spi.MethodContext;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;

/**
 * Opens connections: maps a peer's inbox once it is sure the file is one it may map (see {@link
 * TrustedDirectories}), whose inbox it is and that its owner runs, takes a producer slot there
 * under a fresh session, and hands the connection to the core. On a sender's thread when this
 * context connects, on the poller when it answers a peer; either way under the lock of the
 * {@link Connections} it opens for.
 */
public final class Connector {

    private final SecureRandom random = new SecureRandom();
    private final TrustedDirectories directories;
    private final MethodContext context;
    private final byte[] selfAddress;
    private final int sendTimeoutMs;
    private final long failureNanos;
    private final Reassembly reassembly;
    private final SendCounter sends;

    /**
     * @param selfAddress this context's shm address, written into each slot it takes so a peer can answer
     * @param sendTimeoutMs how long a send waits for room in a full ring
     * @param failureTimeoutMs how long a stopped receiver may stand still before it counts as dead
     * @param reassembly the poller's buffers for split frames
     * @param sends counts the frames every connection sends, for the poller
     */
    public Connector(TrustedDirectories directories, MethodContext context, byte[] selfAddress, int sendTimeoutMs,
                     int failureTimeoutMs, Reassembly reassembly, SendCounter sends) {
        this.directories = directories;
        this.context = context;
        this.selfAddress = selfAddress.clone();
        this.sendTimeoutMs = sendTimeoutMs;
        this.failureNanos = TimeUnit.MILLISECONDS.toNanos(failureTimeoutMs);
        this.reassembly = reassembly;
        this.sends = sends;
    }

    /**
     * @param peerSession the session of the peer's that this connection answers, or 0 if it answers none
     * @return the connection, its receiving end attached to the core; an answering connection
     *     sends its first record ahead of its first frame
     * @throws LinkException naming the inbox and what is wrong with it, or with this end
     */
    ShmConnection open(Connections registry, ContextId peer, ShmAddress there, long peerSession) {
        Segment segment = directories.open(there.directory(), there.inbox());
        Outbox out;
        try {
            check(segment, peer, there);
            out = new Outbox(segment, session(), context.contextId(), selfAddress);
        } catch (IOException e) {
            segment.close();
            throw new LinkException("cannot open a wake-up socket for " + there.describe() + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            segment.close();
            throw e;
        }
        ShmConnection connection = new ShmConnection(registry, peer, there, out,
            new ReceiverWatch(peer, segment, out.slot(), failureNanos, context.problems()), sends, reassembly,
            context.maxFrameSize(), sendTimeoutMs);
        if (peerSession != 0) {
            connection.adopt(peerSession);
            connection.answerLater(peerSession); // before anyone can find it and send a frame first
        }
        connection.attach(context.inbound().open(connection));
        return connection;
    }

    /** @throws SegmentException unless the inbox is {@code peer}'s, open, and its owner runs */
    private static void check(Segment segment, ContextId peer, ShmAddress there) {
        if (!segment.owner().equals(peer)) {
            throw new SegmentException("inbox " + there.describe() + " belongs to context " + segment.owner()
                + ", not " + peer);
        }
        int state = segment.state();
        if (state != STATE_OPEN) {
            throw new SegmentException("inbox " + there.describe() + " of context " + peer + (state == STATE_CLOSED
                ? " is closed (the context stopped)"
                : " was abandoned by its owner (its log says why), which makes a fresh one"));
        }
        if (!Liveness.alive(segment.ownerPid(), segment.ownerStart())) {
            throw new SegmentException("inbox " + there.describe() + " belongs to process " + segment.ownerPid()
                + ", which is gone");
        }
    }

    private long session() {
        long session;
        do {
            session = random.nextLong();
        } while (session == 0);
        return session;
    }
}
