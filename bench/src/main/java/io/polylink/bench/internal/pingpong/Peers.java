package io.polylink.bench.internal.pingpong;

/** The implementations by name: each a server and a client. */
final class Peers {

    static final String RAW_NIO = "raw-nio";
    static final String RAW_NIO_BLOCKING = "raw-nio-blocking";
    static final String NETTY_NIO = "netty-nio";
    static final String POLYLINK_TCP = "polylink:tcp";

    private Peers() {}

    static PingPongServer server(String impl, String idle) throws Exception {
        return switch (impl) {
            case RAW_NIO -> new RawNioServer(true);
            case RAW_NIO_BLOCKING -> new RawNioServer(false);
            case NETTY_NIO -> new NettyServer();
            case POLYLINK_TCP -> new PolylinkServer(idle);
            default -> throw new IllegalArgumentException("unknown implementation " + impl);
        };
    }

    static PingPongClient client(String impl, PingPongOptions options, String address) throws Exception {
        return switch (impl) {
            case RAW_NIO -> new RawNioClient(Integer.parseInt(address), true);
            case RAW_NIO_BLOCKING -> new RawNioClient(Integer.parseInt(address), false);
            case NETTY_NIO -> new NettyClient(Integer.parseInt(address), options.await(), options.handlerDriven());
            case POLYLINK_TCP -> new PolylinkClient(options.idle(), options.await(), options.handlerDriven(), address);
            default -> throw new IllegalArgumentException("unknown implementation " + impl);
        };
    }
}
