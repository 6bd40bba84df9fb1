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
     * The channel closed; no more frames will come.
     *
     * @param cause why, or {@code null} for an orderly close; the core logs it once, naming the
     *     connection, so the method need not log it too
     */
    void onClosed(Throwable cause);
}
