/**
 * The poller: the agent on thread {@code polylink-shm-io} that reads this context's inbox
 * ({@link io.polylink.method.shm.internal.poll.InboxPoller}), what it does with each producer
 * slot's records ({@link io.polylink.method.shm.internal.poll.ProducerSlots}), and how it idles
 * when the ring is empty: its {@link io.polylink.method.shm.internal.poll.IdleStrategy}, the
 * {@link io.polylink.method.shm.internal.poll.Backoff} that adapts it to the traffic, and the
 * {@link io.polylink.method.shm.internal.poll.WakeSocket} it parks on.
 *
 * <p>Everything here runs on the poller thread, which the method starts and stops; producers in
 * other processes reach it only through the inbox and a poke on its wake-up socket. Nothing a
 * record, a connection or a segment throws ends the thread: that connection or mapping ends, the
 * failure is logged, and the poller goes on.
 */
package io.polylink.method.shm.internal.poll;
