import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Adds up every JUnit XML report the build wrote (surefire, failsafe, and bnd-testing's reports
 * of the tests run inside Felix) and prints one closing line: "tests: N passed, N failed".
 * Exits 1 if no test ran, so a build that silently skipped everything does not pass.
 */
public final class TestSummary {

    private static final Pattern SUITE = Pattern.compile("<testsuite\\b([^>]*)>");

    public static void main(String[] args) throws IOException {
        long tests = 0;
        long failed = 0;
        long skipped = 0;
        try (Stream<Path> files = Files.walk(Path.of(args.length > 0 ? args[0] : "."))) {
            List<Path> reports = files.filter(TestSummary::isReport).toList();
            for (Path report : reports) {
                Matcher m = SUITE.matcher(Files.readString(report));
                while (m.find()) {
                    tests += attribute(m.group(1), "tests");
                    failed += attribute(m.group(1), "failures") + attribute(m.group(1), "errors");
                    skipped += attribute(m.group(1), "skipped");
                }
            }
        }
        System.out.println("tests: " + (tests - failed - skipped) + " passed, " + failed + " failed, "
            + skipped + " skipped");
        System.exit(tests == 0 ? 1 : 0);
    }

    private static boolean isReport(Path p) {
        String name = p.getFileName().toString();
        String path = p.toString();
        return name.startsWith("TEST-") && name.endsWith(".xml") && path.contains("target")
            && (path.contains("surefire-reports") || path.contains("failsafe-reports") || path.contains("test-reports"));
    }

    private static long attribute(String attributes, String name) {
        Matcher m = Pattern.compile("\\b" + name + "=\"(\\d+)\"").matcher(attributes);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }
}
