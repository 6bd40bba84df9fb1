package io.polylink.core.internal.shell;

import io.polylink.Context;
import io.polylink.Startpoint;
import io.polylink.core.internal.wire.StartpointCodec;

/** What the commands send to: a name published in the naming registry, or a startpoint's text. */
final class Targets {

    private Targets() {}

    /**
     * @param target a registered name ({@code alpha}) or a startpoint text ({@code polylink:…})
     * @return the startpoint it stands for
     * @throws IllegalArgumentException saying which of the two it was taken for and what went wrong
     */
    static Startpoint resolve(Context context, String target) {
        String t = target.strip();
        if (t.startsWith(StartpointCodec.TEXT_PREFIX)) {
            return context.startpoint(t);
        }
        return context.lookup(t).orElseThrow(() -> new IllegalArgumentException("no context is published as '" + t
            + "' in the naming registry; give a name a node runs under (bin/polylink start NAME) or a startpoint text ("
            + StartpointCodec.TEXT_PREFIX + "…, as in registry/NAME.startpoint)"));
    }
}
