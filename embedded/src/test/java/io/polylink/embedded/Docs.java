package io.polylink.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The code blocks of docs/embedding.md that tests run, each found by the HTML comment before it. */
final class Docs {

    private Docs() {}

    static Path embedding() {
        return Path.of(System.getProperty("polylink.docs", "../docs")).resolve("embedding.md");
    }

    /**
     * @param marker the text of the comment line before the block, e.g. {@code example: Hello.java}
     * @return the lines of the fenced block after {@code <!-- marker -->}
     * @throws AssertionError if the document has no such block
     */
    static List<String> block(Path document, String marker) throws IOException {
        List<String> lines = Files.readAllLines(document);
        int at = lines.indexOf("<!-- " + marker + " -->");
        if (at < 0 || at + 1 >= lines.size() || !lines.get(at + 1).startsWith("```")) {
            throw new AssertionError(document + " has no code block after <!-- " + marker + " -->");
        }
        int end = at + 2;
        while (end < lines.size() && !lines.get(end).startsWith("```")) {
            end++;
        }
        return List.copyOf(lines.subList(at + 2, end));
    }
}
