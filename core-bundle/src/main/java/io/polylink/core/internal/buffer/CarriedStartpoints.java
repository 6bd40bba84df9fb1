package io.polylink.core.internal.buffer;

import io.polylink.Startpoint;
import io.polylink.core.internal.wire.StartpointCodec.TargetRef;

/** How a message carries startpoints: as their targets, from which the reader makes them again. */
public interface CarriedStartpoints {

    /**
     * @return the targets of a startpoint this context made
     * @throws IllegalArgumentException if another implementation made it
     */
    TargetRef[] targets(Startpoint startpoint);

    /** @return a startpoint to these targets, read from a message */
    Startpoint startpoint(TargetRef[] targets);
}
