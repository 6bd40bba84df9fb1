package io.polylink.example.udp.internal;

import io.polylink.tck.MethodContractTest;
import io.polylink.tck.MethodUnderTest;
import java.util.Map;

/**
 * The method contract, kept by the udp example within the limits it declares: a frame fits one
 * datagram, a datagram may be dropped when the receiver lags, and a close cannot reach the peer.
 */
class UdpContractTest extends MethodContractTest {

    @Override
    protected MethodUnderTest method() {
        return MethodUnderTest.of(() -> new UdpMethod(Map.of())).largestFrame(UdpConnection.MAX_FRAME)
            .dropsWhenReceiverLags().cannotTellPeerOfClose();
    }
}
