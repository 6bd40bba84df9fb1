package io.polylink.bench.internal.pingpong;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * The netty-nio client. Driven by the application thread, it writes (Netty hands the write to its
 * event loop) and waits, as {@link ReplySignal} says, until the event loop's handler has seen the
 * reply, as an application thread waiting for a response would. Driven by the handler, the reply
 * handler writes the next message itself, on the event loop.
 */
final class NettyClient implements PingPongClient {

    private final EventLoopGroup group = new NioEventLoopGroup(1, NettyPeers.threads("pingpong-netty-client"));
    private final Channel channel;
    private final ReplySignal replies;
    private final ReplySignal acks;
    private final boolean handlerDriven;
    private final ReplySignal batches = new ReplySignal(ReplySignal.PARK);
    /** The round trips the reply handler drives now, or {@code null}. */
    private volatile HandlerBatch batch;
    /** Written by the event loop only. */
    private volatile long acknowledged;
    private volatile int wrongSize = -1;
    private ByteBuf ping;
    private ByteBuf stream;
    private int size;

    /**
     * @param wait how the measuring thread waits for replies: {@link ReplySignal#SPIN} or {@link ReplySignal#PARK}
     * @param handlerDriven whether the reply handler writes the next message
     */
    NettyClient(int port, String wait, boolean handlerDriven) throws InterruptedException {
        this.handlerDriven = handlerDriven;
        replies = new ReplySignal(wait);
        acks = new ReplySignal(wait);
        Bootstrap bootstrap = new Bootstrap().group(group).channel(NioSocketChannel.class)
            .option(ChannelOption.TCP_NODELAY, true)
            .handler(new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel channel) {
                    NettyPeers.frame(channel.pipeline()).addLast(new Replies());
                }
            });
        channel = bootstrap.connect(RawNio.LOOPBACK, port).sync().channel();
    }

    @Override
    public void size(int size) {
        release();
        this.size = size;
        ping = Unpooled.directBuffer(4 + size).writeInt(Frames.PING).writeZero(size);
        stream = Unpooled.directBuffer(4 + size).writeInt(Frames.STREAM).writeZero(size);
    }

    @Override
    public void roundTrips(int count, Histogram into) throws IOException {
        if (count > 0 && handlerDriven) {
            long before = batches.count();
            HandlerBatch b = new HandlerBatch(count, into, batches);
            b.started();
            batch = b;
            channel.writeAndFlush(ping.retainedDuplicate());
            batches.awaitPast(before, "netty-nio replies", Deadline.BATCH_NANOS);
            batch = null;
        } else {
            for (int i = 0; i < count; i++) {
                long start = System.nanoTime();
                long before = replies.count();
                channel.writeAndFlush(ping.retainedDuplicate());
                replies.awaitPast(before, "netty-nio reply");
                ClientLoop.record(into, System.nanoTime() - start);
            }
        }
        if (wrongSize >= 0) {
            throw new IOException("reply of " + wrongSize + " bytes to a " + size + "-byte ping");
        }
    }

    @Override
    public void stream(int messages) {
        long before = acks.count();
        for (int i = 0; i < messages; i++) {
            // Respect the write buffer's high-water mark, as a well-behaved sender must: without it
            // the outbound buffer grows without bound.
            long deadline = 0;
            int spins = 0;
            while (!channel.isWritable()) {
                Thread.onSpinWait();
                if ((++spins & 0xFFF) == 0) {
                    deadline = deadline == 0 ? Deadline.forReply() : deadline;
                    Deadline.check(deadline, "room in netty's outbound buffer");
                }
            }
            channel.writeAndFlush(stream.retainedDuplicate());
        }
        channel.writeAndFlush(Unpooled.buffer(4).writeInt(Frames.STREAM_END));
        acks.awaitPast(before, "netty-nio stream acknowledgement");
        if (acknowledged != messages) {
            throw new IllegalStateException("server counted " + acknowledged + " of " + messages
                + " streamed messages");
        }
    }

    /** Sees replies on the event loop. */
    private final class Replies extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf frame = (ByteBuf) msg;
            try {
                int op = frame.readInt();
                if (op == Frames.STREAM_END) {
                    acknowledged = frame.readLong();
                    acks.signal();
                } else {
                    if (frame.readableBytes() != size) {
                        wrongSize = frame.readableBytes();
                    }
                    HandlerBatch b = batch;
                    if (b == null) {
                        replies.signal();
                    } else if (b.replied()) {
                        ctx.writeAndFlush(ping.retainedDuplicate());
                    }
                }
            } finally {
                frame.release();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            System.err.println("netty-nio client failed: " + cause);
            ctx.close();
        }
    }

    private void release() {
        if (ping != null) {
            ping.release();
            stream.release();
        }
    }

    @Override
    public void close() throws Exception {
        channel.close().sync();
        release();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(5_000);
    }
}
