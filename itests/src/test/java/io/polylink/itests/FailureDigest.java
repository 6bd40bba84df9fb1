package io.polylink.itests;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * Lists the in-framework tests that failed once all of them have run, as the framework's last
 * words. The tester reports a failure when it happens, among thousands of lines of the runtime's
 * log; a build log that keeps only its tail then says "1 Error(s)" and not which test it was.
 */
final class FailureDigest implements TestWatcher {

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        digest(context).add(context, "FAILED", cause);
    }

    @Override
    public void testAborted(ExtensionContext context, Throwable cause) {
        digest(context).add(context, "ABORTED", cause);
    }

    private static Digest digest(ExtensionContext context) {
        // The root context closes after the last test of the run: its store's resources close then.
        return context.getRoot().getStore(ExtensionContext.Namespace.create(FailureDigest.class))
            .getOrComputeIfAbsent(Digest.class);
    }

    /** The failures of one run, printed when the run ends. */
    static final class Digest implements ExtensionContext.Store.CloseableResource {

        private final List<String> failures = new CopyOnWriteArrayList<>();

        void add(ExtensionContext context, String verdict, Throwable cause) {
            String test = context.getRequiredTestClass().getSimpleName() + "."
                + context.getTestMethod().map(m -> m.getName()).orElse(context.getDisplayName());
            String where = Arrays.stream(cause.getStackTrace())
                .filter(frame -> frame.getClassName().startsWith(context.getRequiredTestClass().getName()))
                .findFirst().map(frame -> " at " + frame).orElse("");
            failures.add(verdict + " " + test + ": " + cause + where);
        }

        @Override
        public void close() {
            if (!failures.isEmpty()) {
                System.err.println("In-framework tests that did not pass (" + failures.size() + "):");
                failures.forEach(line -> System.err.println("  " + line));
            }
        }
    }
}
