package io.polylink.core.internal.flow;

import io.polylink.core.internal.channel.ChannelSender;
import io.polylink.core.internal.channel.PeerChannel;
import io.polylink.core.internal.channel.StackBinding;

/**
 * Where a flow's RSRs go: a stack over a channel, or plain {@code local}.
 *
 * @param channel the channel, {@code null} for plain local
 * @param sender the channel's sender, which the flow's sends go through
 * @param stack the stack as bound to the channel
 */
record BoundStack(PeerChannel channel, ChannelSender sender, StackBinding stack) {

    static final BoundStack LOCAL = new BoundStack(null, null, null);
}
