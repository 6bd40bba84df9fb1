/**
 * Whether the contexts on the other side of an inbox still run, judged from the process table and
 * from heartbeats in shared memory: the heartbeat timer that beats this context's inbox while its
 * poller turns and judges the receivers it sends to, when a record left unfinished may be skipped,
 * and the removal at start of what dead contexts left in the segment directory.
 *
 * <p>{@link io.polylink.method.shm.internal.liveness.Heartbeat} runs the thread
 * {@code polylink-shm-timer}, which alone uses each connection's
 * {@link io.polylink.method.shm.internal.liveness.ReceiverWatch}. The poller asks
 * {@link io.polylink.method.shm.internal.liveness.AbandonedClaims} on its tick; connecting asks
 * {@link io.polylink.method.shm.internal.liveness.Liveness} whether a peer's inbox has an owner.
 */
package io.polylink.method.shm.internal.liveness;
