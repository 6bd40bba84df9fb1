/**
 * Ordered, acknowledged delivery to a peer: one flow per peer, table and link settings numbers
 * the RSRs of every target that shares it, keeps each until the peer acknowledges it, and binds
 * and moves itself to a stack, sending what is unacknowledged again when it moves, so a method
 * can leave while RSRs flow. Runs on the sender's thread under the flow's lock; an inline
 * handler's send is handed off to the holder, never waits. Acknowledgements come in on
 * receiving threads without the lock; moves after a connection closes run on the handler pool,
 * retries and background connects on the retry timer. Called by the routes in {@code link} and
 * by the channels ({@link io.polylink.core.internal.channel.OutboundFlows}).
 */
package io.polylink.core.internal.flow;
