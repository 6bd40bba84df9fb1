/**
 * The {@code tcp} method: {@link io.polylink.method.tcp.internal.TcpMethod}, the Declarative
 * Services component the core finds by its {@code polylink.method=tcp} property, which puts the
 * parts in the sub-packages together on {@code start} and takes them apart on {@code stop}.
 *
 * <p>The core calls in from any thread: {@code connect} dials on the caller's thread, and the
 * connections it returns take sends from any thread. The method's own threads are the I/O loop
 * ({@code polylink-tcp-io}: {@code loop}), the acceptor ({@code polylink-tcp-accept}:
 * {@code connect}), the heartbeat timer ({@code polylink-tcp-timer}: {@code liveness}),
 * background dials to silent peers ({@code polylink-tcp-dial}), and, once, the thread that stops
 * the method when its I/O or accepting thread cannot go on ({@code polylink-tcp-failed}). The
 * proofs of the keyed handshake are in {@code auth}.
 */
package io.polylink.method.tcp.internal;
