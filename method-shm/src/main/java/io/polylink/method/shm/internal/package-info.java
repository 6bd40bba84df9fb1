/**
 * The {@code shm} method: contexts on one host exchange frames through memory-mapped inboxes in a
 * shared segment directory. {@link io.polylink.method.shm.internal.ShmMethod} is the component the
 * core starts and stops; it reads its settings ({@link io.polylink.method.shm.internal.ShmConfig},
 * PID {@code io.polylink.method.shm}) and puts together the parts in the sub-packages, from the
 * bottom up: {@code segment} (the files and their layout), {@code liveness} (heartbeats, dead
 * processes, stale files), {@code ring} (records in an inbox), {@code connect} (connections to
 * peers) and {@code poll} (the thread that reads this context's inbox). Each depends only on
 * those before it.
 *
 * <p>The core calls in on its own threads ({@code start}, {@code stop}, {@code connect},
 * {@code applicable}, {@code statistics}); the method's threads are the poller
 * ({@code polylink-shm-io}) and the heartbeat timer ({@code polylink-shm-timer}). Neither dies of
 * what one connection or segment throws; a method whose poller cannot go on fails visibly.
 */
package io.polylink.method.shm.internal;
