package io.polylink.method.tcp.internal;

import io.polylink.tck.MethodContractTest;
import io.polylink.tck.MethodUnderTest;
import java.util.Map;

/** The method contract, kept by tcp on 127.0.0.1. */
class TcpContractTest extends MethodContractTest {

    @Override
    protected MethodUnderTest method() {
        return MethodUnderTest.of(() -> new TcpMethod(Map.of("bindAddress", "127.0.0.1")));
    }
}
