package io.polylink.method.tcp.internal;

import java.nio.channels.SelectionKey;

/** What the I/O loop calls for a ready key; runs on the loop's thread. */
interface IoHandler {

    void ready(SelectionKey key);
}
