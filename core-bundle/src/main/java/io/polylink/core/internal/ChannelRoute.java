package io.polylink.core.internal;

/** A stack over a connection: frames go through the channel's transforms and method. */
final class ChannelRoute implements Route {

    private final Channel channel;
    private final StackBinding stack;
    private final int endpoint;
    private final int generation;

    ChannelRoute(Channel channel, StackBinding stack, int endpoint, int generation) {
        this.channel = channel;
        this.stack = stack;
        this.endpoint = endpoint;
        this.generation = generation;
    }

    @Override
    public boolean isCurrent(int generation) {
        return generation == this.generation && channel.isOpen();
    }

    @Override
    public io.polylink.LinkException failure() {
        if (channel.isOpen()) {
            return null;
        }
        Throwable cause = channel.failure();
        return cause == null ? null
            : new io.polylink.LinkException(channel + " failed: " + cause.getMessage(), cause);
    }

    @Override
    public void send(int handler, MessageBufferImpl message) {
        channel.send(stack, endpoint, handler, message);
    }
}
