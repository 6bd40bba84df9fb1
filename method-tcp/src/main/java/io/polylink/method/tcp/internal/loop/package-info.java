/**
 * The event thread: {@link io.polylink.method.tcp.internal.loop.IoLoop}, one selector with its
 * {@link io.polylink.method.tcp.internal.loop.IoHandler}s, a task queue, timers and an
 * {@link io.polylink.method.tcp.internal.loop.IdleStrategy}, and nothing of tcp itself.
 *
 * <p>Runs on its own thread, {@code polylink-tcp-io} for connections and {@code polylink-tcp-accept}
 * for the listener and handshakes. Other threads call in to run a task on it, wake it, or say a
 * frame was queued, and may receive in its place ({@code IoLoop.progress}): the loop's receiving
 * turn ({@link io.polylink.method.tcp.internal.loop.ReceivingTurn}) then passes between the loop's
 * thread and callers, one at a time, and its handlers run on whichever holds it. Handlers are
 * registered on it.
 */
package io.polylink.method.tcp.internal.loop;
