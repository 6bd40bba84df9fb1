package io.polylink.spi;

import java.nio.ByteBuffer;
import org.osgi.annotation.versioning.ProviderType;

/** Takes the frames of one channel, in order. */
@ProviderType
public interface FrameReceiver {

    /**
     * Handles one complete frame. The buffer (position to limit) is valid only during the call;
     * the core copies what it keeps.
     *
     * @param frame the frame's bytes
     * @return {@code false} if the frame was malformed and the method must close the channel
     *     (the core has logged why, and logs nothing more when the close comes)
     */
    boolean onFrame(ByteBuffer frame);

    /**
     * Offers a frame that a thread other than the channel's receiving thread read: typically a
     * sending thread that reads its own socket between writes, so that no second thread waits
     * for the socket while it writes. The core takes only frames it handles at once without
     * waiting or delivering anything to the application (acknowledgements); it never calls back
     * into the method from here.
     *
     * <p>If it declines, nothing happened: the method must hand this frame, and every frame after
     * it, to {@link #onFrame} on its receiving thread, in order. A malformed frame is declined too,
     * and refused there. The default declines every frame.
     *
     * @param frame the frame's bytes, valid only during the call
     * @return whether the core took the frame
     * @since 0.4
     */
    default boolean offerAside(ByteBuffer frame) {
        return false;
    }

    /**
     * The channel closed; no more frames will come. Called once per connection, from whichever
     * thread saw the close: the thread that called {@link Connection#close()} (often the core's),
     * the method's receiving thread (a peer's goodbye, a broken stream, a frame {@link #onFrame}
     * refused), or a timer of the method's (a peer declared dead). The core takes it on any
     * thread, while a frame of the same channel may still be in {@link #onFrame}.
     *
     * @param cause why, or {@code null} for an orderly close (by either side); the core logs it
     *     once, naming the connection, so the method need not log it too
     */
    void onClosed(Throwable cause);
}
