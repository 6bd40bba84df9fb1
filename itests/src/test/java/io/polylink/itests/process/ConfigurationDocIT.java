package io.polylink.itests.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/configuration.md} has a table for every configuration PID of the built bundles, with a
 * row for every key their metatype declares, giving its default, and no row for a key they do not
 * declare: the page cannot drift from the configuration types.
 *
 * <p>A table belongs to the PID in backquotes in the heading above it; a row's first cell is the
 * key in backquotes, its second the default: the text of its first backquotes, or none (an empty
 * default) if it has no backquotes.
 */
class ConfigurationDocIT {

    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s");
    private static final Pattern CODE = Pattern.compile("`([^`]*)`");
    private static final Pattern PID = Pattern.compile("[a-z][a-z0-9]*(\\.[a-z0-9]+)+");



    @Test
    void everyKeyOfEveryBundleIsDocumentedWithItsDefaultAndNoOtherKeyIs() throws Exception {
        Path page = page();
        Map<String, Map<String, String>> declared = declared(Installation.dist());
        assertFalse(declared.isEmpty(), "no metatype found in " + Installation.dist().resolve("bundle"));
        List<String> problems = new ArrayList<>();
        Map<String, Map<String, String>> documented = documented(Files.readString(page), problems);

        declared.forEach((pid, keys) -> keys.forEach((key, value) -> {
            String row = pid + " " + key;
            String documentedValue = documented.getOrDefault(pid, Map.of()).get(key);
            if (documentedValue == null) {
                problems.add(row + ": no row; add `" + key + "` with default " + shown(value)
                    + " to the table under the heading naming `" + pid + "`");
            } else if (!documentedValue.equals(value)) {
                problems.add(row + ": documented default " + shown(documentedValue) + ", the bundle declares "
                    + shown(value));
            }
        }));
        documented.forEach((pid, keys) -> keys.keySet().forEach(key -> {
            String row = pid + " " + key;
            if (!declared.getOrDefault(pid, Map.of()).containsKey(key)) {
                problems.add(row + ": documented, but no bundle declares it; remove the row or fix its name");
            }
        }));
        assertEquals(List.of(), problems, "docs/configuration.md (" + page + ") against the bundles' metatype");
    }

    private static Path page() {
        String docs = System.getProperty("polylink.docs");
        Path page = docs == null ? null : Path.of(docs, "configuration.md");
        if (page == null || !Files.isRegularFile(page)) {
            throw new IllegalStateException("polylink.docs (" + docs + ") is not the folder of configuration.md; "
                + "run these tests through Maven (mvn verify)");
        }
        return page;
    }

    /** @return PID, then key, then default, of every Polylink bundle in the distribution */
    private static Map<String, Map<String, String>> declared(Path dist) throws Exception {
        Map<String, Map<String, String>> declared = new TreeMap<>();
        for (Path jar : Metatype.bundles(dist)) {
            for (Metatype.Designate d : Metatype.designates(jar)) {
                declared.computeIfAbsent(d.pid(), pid -> new TreeMap<>()).putAll(d.defaults());
            }
        }
        return declared;
    }

    /** @return PID, then key, then default, of every table row under a heading naming a PID */
    private static Map<String, Map<String, String>> documented(String page, List<String> problems) {
        Map<String, Map<String, String>> documented = new TreeMap<>();
        String pid = null;
        for (String line : page.split("\n")) {
            if (HEADING.matcher(line).lookingAt()) {
                pid = pidIn(line);
                continue;
            }
            if (pid == null || !line.startsWith("|")) {
                continue;
            }
            String[] cells = line.split("\\|", -1);
            if (cells.length < 4) {
                continue;
            }
            String key = onlyCode(cells[1].strip());
            if (key == null) {
                continue; // the header row and the separator
            }
            Matcher value = CODE.matcher(cells[2]);
            String previous = documented.computeIfAbsent(pid, p -> new TreeMap<>())
                .put(key, value.find() ? value.group(1) : "");
            if (previous != null) {
                problems.add(pid + " " + key + ": two rows");
            }
        }
        return documented;
    }

    private static String pidIn(String heading) {
        Matcher code = CODE.matcher(heading);
        while (code.find()) {
            if (PID.matcher(code.group(1)).matches()) {
                return code.group(1);
            }
        }
        return null;
    }

    /** @return the text of a cell that is one code span and nothing else, else null */
    private static String onlyCode(String cell) {
        Matcher code = CODE.matcher(cell);
        return code.matches() ? code.group(1) : null;
    }

    private static String shown(String value) {
        return value.isEmpty() ? "(empty)" : "`" + value + "`";
    }
}
