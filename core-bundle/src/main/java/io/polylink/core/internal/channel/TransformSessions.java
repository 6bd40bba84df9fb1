package io.polylink.core.internal.channel;

import io.polylink.ContextId;
import io.polylink.LinkException;
import io.polylink.core.internal.observe.Problems;
import io.polylink.core.internal.registry.Installed;
import io.polylink.core.internal.wire.ControlFrame;
import io.polylink.core.internal.wire.Handshake;
import io.polylink.spi.PeerLocation;
import io.polylink.spi.Transform;
import io.polylink.spi.TransformPeer;
import io.polylink.spi.TransformSession;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One channel's transform sessions, one per transform, shared by every stack that uses it in
 * either direction: opened on first use by a sender binding a stack or by the receiving thread
 * resolving one, closed when the transform leaves or the connection closes. What a transform
 * throws as it opens or closes a session, an Error too, never reaches the thread that asked: a
 * session that cannot open refuses its stack, one that cannot close is reported.
 */
final class TransformSessions {

    private final PeerChannel channel;
    private final ContextId self;
    private final Installed installed;
    private final Problems problems;
    private final Map<String, TransformSession> sessions = new ConcurrentHashMap<>();
    private final Object lock = new Object();

    TransformSessions(PeerChannel channel, ContextId self, Installed installed, Problems problems) {
        this.channel = channel;
        this.self = self;
        this.installed = installed;
        this.problems = problems;
    }

    /**
     * @return the session of the transform of that name, opened now if it is not yet
     * @throws LinkException if the transform is not installed here, or refuses this connection
     */
    TransformSession open(String name) {
        TransformSession session = sessions.get(name);
        if (session != null) {
            return session;
        }
        synchronized (lock) {
            session = sessions.get(name);
            if (session == null) {
                Transform transform = installed.transform(name);
                if (transform == null) {
                    throw new LinkException("transform " + name + " is not installed here");
                }
                session = opened(transform, name);
                sessions.put(name, session);
            }
        }
        channel.sender().flushLater();
        return session;
    }

    private TransformSession opened(Transform transform, String name) {
        try {
            return transform.open(new SessionPeer(name));
        } catch (LinkException e) {
            throw e;
        } catch (Throwable t) {
            throw new LinkException("transform " + name + " failed to open a session on " + channel + ": " + t, t);
        }
    }

    /** Closes the session of a transform that left, so its class loader is not kept alive. */
    void forget(String transform) {
        TransformSession session = sessions.remove(transform);
        if (session != null) {
            close(transform, session);
        }
    }

    /** The connection closed: every session goes. */
    void closeAll() {
        sessions.forEach(this::close);
        sessions.clear();
    }

    private void close(String name, TransformSession session) {
        try {
            session.close();
        } catch (Throwable t) {
            problems.error("close failed", "transform " + name + " threw as its session on " + channel + " closed: "
                + t, t);
        }
    }

    /** One transform's view of this channel. */
    private final class SessionPeer implements TransformPeer {
        private final byte[] name;

        SessionPeer(String name) {
            this.name = name.getBytes(StandardCharsets.US_ASCII);
        }

        @Override
        public ContextId self() {
            return self;
        }

        @Override
        public ContextId peer() {
            return channel.connection().peer();
        }

        @Override
        public String method() {
            return channel.connection().method();
        }

        @Override
        public PeerLocation location() {
            return channel.location();
        }

        @Override
        public void sendHandshake(ByteBuffer message) {
            channel.sender().queue(ControlFrame.HANDSHAKE, Handshake.encode(name, message));
        }
    }
}
