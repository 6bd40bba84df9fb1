package io.polylink.spi;

import org.osgi.annotation.versioning.ProviderType;

/** The core's side of a method: it takes the frames a method receives. */
@ProviderType
public interface InboundSink {

    /**
     * Announces a channel frames will arrive on, before its first frame. A method calls this once
     * per established connection, whichever side opened it.
     *
     * @param connection the channel; the core may send replies on it
     * @return where to hand this channel's frames, in order, from one thread at a time
     */
    FrameReceiver open(Connection connection);
}
