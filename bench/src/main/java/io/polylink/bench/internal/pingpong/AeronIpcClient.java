package io.polylink.bench.internal.pingpong;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.FragmentAssembler;
import io.aeron.Subscription;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The aeron-ipc client: the measuring thread offers each ping and busy-polls the reply
 * subscription itself until the reply has been assembled, as raw-nio's client reads its socket.
 */
final class AeronIpcClient implements PingPongClient {

    private static final long CONNECT_NANOS = TimeUnit.SECONDS.toNanos(20);

    private final Aeron aeron;
    private final ExclusivePublication pings;
    private final Subscription replies;
    private final FragmentAssembler assembler;
    private final IdleStrategy idle = AeronPeers.spin();
    private final UnsafeBuffer end = new UnsafeBuffer(ByteBuffer.allocateDirect(AeronPeers.PAYLOAD));
    /** Written by the fragment handler, which runs on this same thread inside poll. */
    private long received;
    private int lastLength;
    private int lastOp;
    private long lastCount;
    private UnsafeBuffer ping;
    private UnsafeBuffer stream;
    private int size;

    /** @param directory the server's media driver directory */
    AeronIpcClient(String directory) {
        aeron = AeronPeers.connect(directory);
        try {
            pings = aeron.addExclusivePublication(AeronPeers.CHANNEL, AeronPeers.PING_STREAM);
            replies = aeron.addSubscription(AeronPeers.CHANNEL, AeronPeers.PONG_STREAM);
            assembler = new FragmentAssembler((DirectBuffer buffer, int offset, int length, io.aeron.logbuffer.Header h) -> {
                lastLength = length;
                lastOp = buffer.getInt(offset + AeronPeers.OP);
                if (lastOp == Frames.STREAM_END) {
                    lastCount = buffer.getLong(offset + AeronPeers.PAYLOAD);
                }
                received++;
            });
            long deadline = System.nanoTime() + CONNECT_NANOS;
            while (!pings.isConnected() || !replies.isConnected()) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("aeron-ipc: the server's streams did not connect within 20 s");
                }
                Thread.onSpinWait();
            }
        } catch (RuntimeException e) {
            aeron.close();
            throw e;
        }
        end.putInt(AeronPeers.OP, Frames.STREAM_END);
    }

    @Override
    public void size(int size) {
        this.size = size;
        ping = message(Frames.PING, size);
        stream = message(Frames.STREAM, size);
    }

    private static UnsafeBuffer message(int op, int size) {
        UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(AeronPeers.PAYLOAD + size));
        buffer.putInt(AeronPeers.OP, op);
        buffer.putBytes(AeronPeers.PAYLOAD, PolylinkPeers.payload(size));
        return buffer;
    }

    @Override
    public void roundTrips(int count, Histogram into) throws IOException {
        for (int i = 0; i < count; i++) {
            long start = System.nanoTime();
            long before = received;
            AeronPeers.offer(pings, ping, 0, ping.capacity(), idle);
            awaitPast(before, "aeron-ipc reply");
            ClientLoop.record(into, System.nanoTime() - start);
            if (lastLength != ping.capacity() || lastOp != Frames.PING) {
                throw new IOException("reply of " + lastLength + " bytes, op " + lastOp + " to a " + size + "-byte ping");
            }
        }
    }

    private void awaitPast(long before, String what) {
        long deadline = 0;
        int spins = 0;
        while (received == before) {
            idle.idle(replies.poll(assembler, AeronPeers.FRAGMENTS));
            if ((++spins & 0xFFF) == 0) {
                deadline = deadline == 0 ? Deadline.forReply() : deadline;
                Deadline.check(deadline, what);
            }
        }
    }

    @Override
    public void stream(int messages) {
        for (int i = 0; i < messages; i++) {
            AeronPeers.offer(pings, stream, 0, stream.capacity(), idle);
        }
        long before = received;
        AeronPeers.offer(pings, end, 0, end.capacity(), idle);
        awaitPast(before, "aeron-ipc stream acknowledgement");
        if (lastOp != Frames.STREAM_END || lastCount != messages) {
            throw new IllegalStateException("server counted " + lastCount + " of " + messages + " streamed messages");
        }
    }

    @Override
    public void close() {
        CloseHelper.quietCloseAll(pings, replies, aeron);
    }
}
