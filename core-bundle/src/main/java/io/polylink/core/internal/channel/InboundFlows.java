package io.polylink.core.internal.channel;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The flows this context receives, least recently announced first, bounded: a peer that comes
 * and goes forever must not grow the map forever. A flow forgotten here and announced again
 * starts over from the sequence number its announcement names, so only a flow silent through
 * {@value #CAPACITY} newer announcements could see a copy delivered twice.
 */
final class InboundFlows {

    static final int CAPACITY = 16_384;

    private final Map<InboundFlow.Key, InboundFlow> flows = new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<InboundFlow.Key, InboundFlow> eldest) {
            return size() > CAPACITY;
        }
    };

    /** Looked up once per announcement, not per RSR: the channel keeps what it got. */
    synchronized InboundFlow get(InboundFlow.Key key, int first) {
        return flows.computeIfAbsent(key, k -> new InboundFlow(k, first));
    }
}
