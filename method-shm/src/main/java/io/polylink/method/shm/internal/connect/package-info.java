/**
 * Connections to peer contexts: the shm address in the descriptor, opening a connection to a
 * peer's inbox, answering a peer that opened one to ours (or refusing it, if its inbox cannot be
 * mapped), the table of connections by peer, and each connection's two ends: {@link io.polylink.method.shm.internal.connect.ShmConnection} sends
 * frames as records into the peer's inbox, {@link io.polylink.method.shm.internal.connect.FrameAssembler}
 * puts the peer's records back into frames for the core.
 *
 * <p>Senders call in on their own threads (the core's {@code connect}, {@code send}, {@code close});
 * the poller hands in records and answers peers; the heartbeat timer judges receivers through
 * {@link io.polylink.method.shm.internal.connect.Connections}. No thread of its own.
 */
package io.polylink.method.shm.internal.connect;
