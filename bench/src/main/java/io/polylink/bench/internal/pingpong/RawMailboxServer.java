package io.polylink.bench.internal.pingpong;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The raw-mailbox server: one thread polling the client's slot. A ping's payload is copied
 * straight from the client's slot into the reply slot; streamed payloads are copied out into a
 * buffer of the server's, as a receiver that hands messages on does. Spins while messages come
 * and parks between polls once quiet ({@link QuietSpin}).
 */
final class RawMailboxServer implements PingPongServer {

    private final ServedFile<RawMailbox> file;

    RawMailboxServer() throws IOException {
        file = new ServedFile<>("raw-mailbox", RawMailbox::create, RawMailboxServer::serve);
    }

    @Override
    public String address() {
        return file.path();
    }

    private static void serve(RawMailbox mailbox, ServedFile<RawMailbox> file) {
        RawMailbox.Slot in = mailbox.toServer();
        RawMailbox.Slot out = mailbox.toClient();
        ByteBuffer received = ByteBuffer.allocateDirect(PingPongOptions.MAX_SIZE);
        ByteBuffer count = ByteBuffer.allocate(Long.BYTES);
        QuietSpin quiet = new QuietSpin();
        long streamed = 0;
        try {
            while (file.running()) {
                if (!in.ready()) {
                    quiet.idle();
                    continue;
                }
                quiet.worked();
                switch (in.await()) {
                    case Frames.PING -> in.answer(out);
                    case Frames.STREAM -> {
                        streamed++;
                        in.readInto(received.clear());
                    }
                    case Frames.STREAM_END -> {
                        in.consumed();
                        out.write(Frames.STREAM_END, count.clear().putLong(0, streamed));
                        streamed = 0;
                    }
                    default -> throw new IllegalStateException("unknown op in the raw mailbox");
                }
            }
        } catch (RuntimeException e) {
            if (file.running()) {
                System.err.println("raw-mailbox server failed: " + e);
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        file.close();
    }
}
