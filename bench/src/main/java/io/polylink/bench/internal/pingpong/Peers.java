package io.polylink.bench.internal.pingpong;

import java.util.List;

/**
 * The implementations by name: each a server and a client. Two families, each with its own floor
 * and its own peer to compare with: over loopback TCP (raw NIO, Netty) and through shared memory
 * on one host (a raw memory-mapped ring, Aeron IPC).
 */
final class Peers {

    static final String RAW_NIO = "raw-nio";
    static final String RAW_NIO_BLOCKING = "raw-nio-blocking";
    static final String NETTY_NIO = "netty-nio";
    static final String POLYLINK_TCP = "polylink:tcp";
    static final String POLYLINK_LZ4_TCP = "polylink:lz4/tcp";
    static final String POLYLINK_AEAD_TCP = "polylink:aead/tcp";
    static final String RAW_SHM = "raw-shm";
    static final String RAW_MAILBOX = "raw-mailbox";
    static final String AERON_IPC = "aeron-ipc";
    static final String POLYLINK_SHM = "polylink:shm";
    /** multi: the shm link in contexts that have tcp installed too, idle. */
    static final String SHM_TCP_IDLE = "polylink:shm+tcp-idle";
    /** multi: the same, while a tcp ping-pong runs between the same two contexts. */
    static final String SHM_TCP_BUSY = "polylink:shm+tcp-busy";

    /** What {@code pingpong --impl} offers, in the default order. */
    static final List<String> PINGPONG = List.of(RAW_NIO, RAW_NIO_BLOCKING, NETTY_NIO, POLYLINK_TCP, POLYLINK_LZ4_TCP,
        POLYLINK_AEAD_TCP, RAW_MAILBOX, RAW_SHM, AERON_IPC, POLYLINK_SHM);
    /** The cases of the multi command, in order; the first is the baseline. */
    static final List<String> MULTI = List.of(POLYLINK_SHM, SHM_TCP_IDLE, SHM_TCP_BUSY);
    /** Every implementation a peer process can run. */
    static final List<String> ALL = List.of(RAW_NIO, RAW_NIO_BLOCKING, NETTY_NIO, POLYLINK_TCP, POLYLINK_LZ4_TCP,
        POLYLINK_AEAD_TCP, RAW_MAILBOX, RAW_SHM, AERON_IPC, POLYLINK_SHM, SHM_TCP_IDLE, SHM_TCP_BUSY);

    private Peers() {}

    /** @return whether {@code impl} moves its messages through shared memory */
    static boolean usesShm(String impl) {
        return impl.equals(RAW_MAILBOX) || impl.equals(RAW_SHM) || impl.equals(AERON_IPC) || impl.equals(POLYLINK_SHM) || MULTI.contains(impl);
    }

    /** @return the raw implementations that are the floor for {@code impl}'s family */
    static List<String> rawFloor(String impl) {
        return usesShm(impl) ? List.of(RAW_MAILBOX, RAW_SHM) : List.of(RAW_NIO, RAW_NIO_BLOCKING);
    }

    /** @return the established library {@code impl}'s family is compared with */
    static String peerOf(String impl) {
        return usesShm(impl) ? AERON_IPC : NETTY_NIO;
    }

    /** @return the method stack a {@code polylink:*} implementation or multi case sends on */
    static String stack(String impl) {
        if (MULTI.contains(impl)) {
            return "shm";
        }
        if (!impl.startsWith("polylink:")) {
            throw new IllegalArgumentException(impl + " is not a polylink implementation");
        }
        return impl.substring("polylink:".length());
    }

    static PingPongServer server(String impl, String idle) throws Exception {
        return switch (impl) {
            case RAW_NIO -> new RawNioServer(true);
            case RAW_NIO_BLOCKING -> new RawNioServer(false);
            case NETTY_NIO -> new NettyServer();
            case RAW_MAILBOX -> new RawMailboxServer();
            case RAW_SHM -> new RawShmServer();
            case AERON_IPC -> new AeronIpcServer();
            default -> {
                if (!ALL.contains(impl)) {
                    throw new IllegalArgumentException("unknown implementation " + impl);
                }
                yield new PolylinkServer(impl, idle);
            }
        };
    }

    static PingPongClient client(String impl, PingPongOptions options, String address) throws Exception {
        return switch (impl) {
            case RAW_NIO -> new RawNioClient(Integer.parseInt(address), true);
            case RAW_NIO_BLOCKING -> new RawNioClient(Integer.parseInt(address), false);
            case NETTY_NIO -> new NettyClient(Integer.parseInt(address), options.await(), options.handlerDriven());
            case RAW_MAILBOX -> new RawMailboxClient(address);
            case RAW_SHM -> new RawShmClient(address);
            case AERON_IPC -> new AeronIpcClient(address);
            default -> {
                if (!ALL.contains(impl)) {
                    throw new IllegalArgumentException("unknown implementation " + impl);
                }
                yield new PolylinkClient(impl, options.idle(), options.await(), options.handlerDriven(), address);
            }
        };
    }
}
