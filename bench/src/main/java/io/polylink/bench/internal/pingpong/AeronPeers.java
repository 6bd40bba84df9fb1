package io.polylink.bench.internal.pingpong;

import io.aeron.Aeron;
import io.aeron.Publication;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

/**
 * What the aeron-ipc client and server share. Both connect to one embedded media driver (the
 * server's) by its directory; pings go on one IPC stream, replies on another. A message is an op
 * (int, at offset 0) then the payload; Aeron adds its own 32-byte frame header and fragments
 * messages longer than the IPC MTU, which the {@link io.aeron.FragmentAssembler}s put together.
 */
final class AeronPeers {

    static final String CHANNEL = "aeron:ipc";
    static final int PING_STREAM = 1001;
    static final int PONG_STREAM = 1002;
    static final int OP = 0;
    static final int PAYLOAD = 4;
    /** Fragments taken per poll: small, so a reply is seen as soon as it is there. */
    static final int FRAGMENTS = 16;

    private AeronPeers() {}

    /** @return a client of the media driver in {@code directory} */
    static Aeron connect(String directory) {
        return Aeron.connect(new Aeron.Context().aeronDirectoryName(directory));
    }

    /**
     * Offers {@code length} bytes of {@code buffer}, busy-spinning while the publication is back
     * pressured or not yet connected.
     *
     * @throws IllegalStateException if the publication is closed, or no offer succeeds within
     *     {@link Deadline#REPLY_NANOS}
     */
    static void offer(Publication publication, DirectBuffer buffer, int offset, int length, IdleStrategy idle) {
        long deadline = 0;
        int spins = 0;
        long result;
        while ((result = publication.offer(buffer, offset, length)) < 0) {
            if (result == Publication.CLOSED || result == Publication.MAX_POSITION_EXCEEDED) {
                throw new IllegalStateException("aeron publication refused an offer: " + Publication.errorString(result));
            }
            idle.idle();
            if ((++spins & 0xFFF) == 0) {
                deadline = deadline == 0 ? Deadline.forReply() : deadline;
                Deadline.check(deadline, "room in the aeron publication (" + Publication.errorString(result) + ")");
            }
        }
    }

    /** @return the idle strategy of every aeron-ipc thread that moves messages */
    static IdleStrategy spin() {
        return new BusySpinIdleStrategy();
    }

    /**
     * @return the server's idle strategy while it waits for pings: a busy spin while they come,
     *     parking between polls once quiet ({@link QuietSpin}), so an interleaved run can wait
     */
    static IdleStrategy spinWhileBusy() {
        QuietSpin quiet = new QuietSpin();
        return new IdleStrategy() {
            @Override
            public void idle(int workCount) {
                if (workCount > 0) {
                    quiet.worked();
                } else {
                    quiet.idle();
                }
            }

            @Override
            public void idle() {
                quiet.idle();
            }

            @Override
            public void reset() {
                quiet.worked();
            }
        };
    }
}
