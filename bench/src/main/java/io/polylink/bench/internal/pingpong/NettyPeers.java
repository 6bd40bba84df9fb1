package io.polylink.bench.internal.pingpong;

import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** What the netty-nio client and server share: the {@link Frames} framing and thread names. */
final class NettyPeers {

    private NettyPeers() {}

    /** Adds the length prefix on the way out and strips it on the way in: handlers see {@code op, payload}. */
    static ChannelPipeline frame(ChannelPipeline pipeline) {
        return pipeline.addLast(new LengthFieldBasedFrameDecoder(Frames.MAX_LENGTH + 4, 0, 4, 0, 4),
            new LengthFieldPrepender(4));
    }

    static ThreadFactory threads(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
