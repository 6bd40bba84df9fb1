package io.polylink.core.internal.registry;

import io.polylink.spi.CommunicationMethod;

/**
 * A method with what the core needs to know of it.
 *
 * @param method the method, started
 * @param preference its place in this context's table when the configuration names no order:
 *     lower first
 * @param address its local address, as its descriptor in this context's table carries it
 * @param deliversOnSend whether its connections deliver each frame before their send returns
 */
record InstalledMethod(CommunicationMethod method, int preference, byte[] address, boolean deliversOnSend) {}
