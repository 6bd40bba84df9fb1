package io.polylink.tck;

import io.polylink.spi.CommunicationMethod;
import java.util.function.Supplier;

/**
 * The method a {@link MethodContractTest} runs, and the limits it declares.
 *
 * @param factory makes a new, unstarted instance of the method, configured for a test: called
 *     once per side of each test, so it must not share state (ports, directories in use) between
 *     instances that would make two of them clash
 * @param largestFrame the largest frame the method carries, at most {@link #CONTEXT_FRAME}: the
 *     kit sends frames up to this size and expects a larger one to fail its send
 * @param losesFramesWhenReceiverLags whether the method may lose frames when its receiver falls behind
 *     (a datagram method): the kit then checks order, wholeness and no duplicates, but not that
 *     every frame arrives, and not that a stalled receiver holds sends back
 * @param tellsPeerOnClose whether the peer's receiver hears of a close: {@code false} for a
 *     method with nothing to carry the news (datagrams), whose peers learn it from the core
 */
public record MethodUnderTest(Supplier<? extends CommunicationMethod> factory, int largestFrame,
                              boolean losesFramesWhenReceiverLags, boolean tellsPeerOnClose) {

    /** The largest frame the kit's contexts send or accept ({@code MethodContext.maxFrameSize()}): 4 MiB and 64 bytes. */
    public static final int CONTEXT_FRAME = (4 << 20) + 64;

    public MethodUnderTest {
        if (factory == null) {
            throw new IllegalArgumentException("a factory of the method is needed");
        }
        if (largestFrame < Frames.HEADER || largestFrame > CONTEXT_FRAME) {
            throw new IllegalArgumentException("largestFrame must be " + Frames.HEADER + " to " + CONTEXT_FRAME
                + " bytes, not " + largestFrame);
        }
    }

    /**
     * @param factory makes a new, unstarted instance of the method
     * @return a method that carries frames up to the context's largest, loses none and tells its
     *     peer of a close
     */
    public static MethodUnderTest of(Supplier<? extends CommunicationMethod> factory) {
        return new MethodUnderTest(factory, CONTEXT_FRAME, false, true);
    }

    /** @return this method, carrying frames of at most {@code bytes} */
    public MethodUnderTest largestFrame(int bytes) {
        return new MethodUnderTest(factory, bytes, losesFramesWhenReceiverLags, tellsPeerOnClose);
    }

    /** @return this method, which may lose frames when its receiver falls behind */
    public MethodUnderTest dropsWhenReceiverLags() {
        return new MethodUnderTest(factory, largestFrame, true, tellsPeerOnClose);
    }

    /** @return this method, whose peer does not hear of a close */
    public MethodUnderTest cannotTellPeerOfClose() {
        return new MethodUnderTest(factory, largestFrame, losesFramesWhenReceiverLags, false);
    }
}
