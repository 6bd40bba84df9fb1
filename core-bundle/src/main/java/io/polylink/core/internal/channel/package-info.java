/**
 * The core's side of each connection, both ways. Sending ({@code ChannelSender}): frames through
 * the stack's transform sessions, with the stack announcements, tables and control frames the
 * peer needs first; senders take the channel's send lock, and what a receiving thread owes goes
 * out with the next frame or from the control thread. Receiving ({@code ChannelReceiver}): on
 * the method's receiving thread, each frame is checked, untransformed, admitted to its flow
 * ({@code InboundFlow}: in order, each RSR once) and dispatched to its endpoint; a frame that
 * breaks the protocol, or that a transform throws at, closes the connection, and a stack the
 * context does not accept from the peer is refused in band as it is announced. What a peer can
 * make a channel hold (tables, stacks, flows, control frames owed, deferred RSRs) is bounded.
 * Transform sessions are shared by both directions.
 * Methods call in through {@link io.polylink.spi.InboundSink}; flows bind and send through
 * {@code PeerChannels} and {@code ChannelSender}.
 */
package io.polylink.core.internal.channel;
