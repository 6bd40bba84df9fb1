package io.polylink.launcher;

import java.util.List;
import java.util.Locale;

/** The demo's console: steps stamped with the seconds since the start, sections, indented node output. */
final class Narrator {

    private final long start = System.nanoTime();

    double seconds() {
        return (System.nanoTime() - start) / 1e9;
    }

    void line(String text) {
        System.out.println(text);
        System.out.flush();
    }

    /** A step that takes time, with when it happened, so a slow step shows. */
    void step(String text) {
        line(String.format(Locale.ROOT, "[%5.1fs] %s", seconds(), text));
    }

    void section(String title) {
        line("");
        line(title);
    }

    /** What a node printed, indented under its name. */
    void block(String node, List<String> lines) {
        String first = String.format(Locale.ROOT, "   %-6s ", node);
        String rest = " ".repeat(first.length());
        for (int i = 0; i < lines.size(); i++) {
            line((i == 0 ? first : rest) + lines.get(i));
        }
    }
}
