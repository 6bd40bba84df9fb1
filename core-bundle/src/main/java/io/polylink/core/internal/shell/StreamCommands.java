package io.polylink.core.internal.shell;

import io.polylink.Context;
import org.apache.felix.service.command.Descriptor;
import org.apache.felix.service.command.Parameter;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;

/**
 * Gogo commands {@code polylink:stream} and {@code polylink:tally}: a numbered stream through
 * any context and back ({@link NumberedStream}), counting what was sent, came back, was lost,
 * duplicated or reordered. One stream runs in the background at a time, so a method can be
 * swapped while it flows.
 */
@Component(service = StreamCommands.class, property = {
    "osgi.command.scope=polylink",
    "osgi.command.function=stream",
    "osgi.command.function=tally"})
public final class StreamCommands {

    private final Context context;
    /** The background stream; guarded by this. */
    private NumberedStream running;

    @Activate
    public StreamCommands(@Reference Context context) {
        this.context = context;
    }

    @Deactivate
    synchronized void deactivate() throws InterruptedException {
        if (running != null) {
            running.close();
            running = null;
        }
    }

    /** polylink:stream target count — sends a numbered stream, waits for it to come back, and tallies it. */
    @Descriptor("sends a numbered stream of RSRs through a context's system endpoint and back, as fast as the "
        + "round trips allow, and says how many were sent, came back, were lost, duplicated or reordered")
    public String stream(@Descriptor("a name a context is published under, or a startpoint text (polylink:…)")
                         String target,
                         @Descriptor("RSRs to send, 1 to 100000000") long count) throws InterruptedException {
        if (count < 1 || count > NumberedStream.MAX_LENGTH) {
            throw new IllegalArgumentException("count must be 1 to " + NumberedStream.MAX_LENGTH + ", not " + count);
        }
        NumberedStream stream = new NumberedStream(context, Targets.resolve(context, target), target, count, false);
        try {
            stream.awaitSent();
            return stream.finish();
        } finally {
            stream.close();
        }
    }

    /** polylink:stream target — starts a paced numbered stream in the background. */
    @Descriptor("starts a numbered stream through a context's system endpoint and back in the background, paced "
        + "to leave the cores to the nodes; polylink:tally shows it, polylink:tally --stop ends and tallies it")
    public synchronized String stream(@Descriptor("a name a context is published under, or a startpoint text "
                                          + "(polylink:…)") String target) {
        if (running != null) {
            throw new IllegalStateException("a stream runs already; polylink:tally --stop ends it");
        }
        running = new NumberedStream(context, Targets.resolve(context, target), target, NumberedStream.MAX_LENGTH,
            true);
        return running.progress();
    }

    /** polylink:tally [--stop] — the background stream so far, or stopped and tallied. */
    @Descriptor("shows the background stream so far: RSRs tried and back, the stack, each move of the link; with "
        + "--stop, ends it, waits for its echoes and tallies it")
    public String tally(@Descriptor("end the stream and tally it")
                        @Parameter(names = {"-s", "--stop"}, absentValue = "false", presentValue = "true")
                        boolean stop) throws InterruptedException {
        NumberedStream stream;
        synchronized (this) {
            stream = running;
            if (stream == null) {
                return "no stream runs; polylink:stream TARGET starts one";
            }
            if (!stop) {
                return stream.progress();
            }
            running = null;
        }
        return stream.finish();
    }
}
