package io.polylink.core.internal.channel;

import io.polylink.ContextId;
import io.polylink.spi.Connection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Outbound channels shared by every link to the same peer over the same method with the same
 * parameters. Connecting happens under a per-key lock, so links to one slow peer never hold up
 * links to others.
 */
final class ChannelPool {

    /** What makes links share a connection. */
    record Key(ContextId peer, String method, Map<String, String> parameters) {}

    private static final class Slot {
        PeerChannel channel;
    }

    private final Map<Key, Slot> slots = new ConcurrentHashMap<>();

    /**
     * @param connect opens a connection when the slot has none open
     * @param channelOf the channel state for a connection
     * @return an open channel
     */
    PeerChannel get(Key key, Supplier<Connection> connect, Function<Connection, PeerChannel> channelOf) {
        Slot slot = slots.computeIfAbsent(key, k -> new Slot());
        synchronized (slot) {
            if (slot.channel == null || !slot.channel.isOpen()) {
                slot.channel = channelOf.apply(connect.get());
            }
            return slot.channel;
        }
    }

    /** Forgets a closed channel, so its memory goes and the next send connects afresh. */
    void forget(PeerChannel channel) {
        slots.values().removeIf(s -> {
            synchronized (s) {
                return s.channel == channel;
            }
        });
    }

    /** Forgets every slot of a method that left. */
    void forgetMethod(String method) {
        slots.keySet().removeIf(k -> k.method().equals(method));
    }
}
