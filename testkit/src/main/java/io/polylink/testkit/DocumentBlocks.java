package io.polylink.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The code blocks of a Markdown document that tests run or read, each found by the HTML comment on
 * the line before it ({@code <!-- example: Hello.java -->}), which Markdown does not show.
 */
public final class DocumentBlocks {

    private DocumentBlocks() {}

    /**
     * @param name a file of the project's {@code docs/}, found through the system property
     *     {@code polylink.docs} (the folder), else {@code ../docs}
     */
    public static Path doc(String name) {
        return Path.of(System.getProperty("polylink.docs", "../docs")).resolve(name);
    }

    /**
     * @param marker the text of the comment, e.g. {@code example: Hello.java}
     * @return the lines of the fenced block after {@code <!-- marker -->}
     * @throws AssertionError if the document has no such block
     */
    public static List<String> block(Path document, String marker) throws IOException {
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
