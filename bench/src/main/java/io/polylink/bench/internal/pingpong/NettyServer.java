package io.polylink.bench.internal.pingpong;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * The netty-nio server: one NIO event loop accepting and serving, frames cut by
 * {@code LengthFieldBasedFrameDecoder}; a ping's frame is written back as it was received.
 */
final class NettyServer implements PingPongServer {

    private final EventLoopGroup group = new NioEventLoopGroup(1, NettyPeers.threads("pingpong-netty-server"));
    private final Channel listener;

    NettyServer() throws InterruptedException {
        ServerBootstrap bootstrap = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childHandler(new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel channel) {
                    NettyPeers.frame(channel.pipeline()).addLast(new Answer());
                }
            });
        listener = bootstrap.bind(RawNio.LOOPBACK, 0).sync().channel();
    }

    @Override
    public String address() {
        return Integer.toString(((InetSocketAddress) listener.localAddress()).getPort());
    }

    /** Answers one connection's frames, on the event loop. */
    private static final class Answer extends ChannelInboundHandlerAdapter {
        private long streamed;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf frame = (ByteBuf) msg;
            int op = frame.getInt(frame.readerIndex());
            switch (op) {
                case Frames.PING -> ctx.writeAndFlush(frame);
                case Frames.STREAM -> {
                    streamed++;
                    frame.release();
                }
                case Frames.STREAM_END -> {
                    frame.release();
                    ctx.writeAndFlush(ctx.alloc().buffer(4 + Long.BYTES).writeInt(Frames.STREAM_END).writeLong(streamed));
                    streamed = 0;
                }
                default -> {
                    frame.release();
                    ctx.close();
                }
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            System.err.println("netty-nio server failed: " + cause);
            ctx.close();
        }
    }

    @Override
    public void close() throws Exception {
        listener.close().sync();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(5_000);
    }
}
