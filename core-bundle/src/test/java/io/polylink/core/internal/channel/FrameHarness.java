package io.polylink.core.internal.channel;

import io.polylink.Context;
import io.polylink.Delivery;
import io.polylink.Endpoint;
import io.polylink.Explanation;
import io.polylink.MalformedMessageException;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.core.internal.Internals;
import io.polylink.core.internal.RepeatTransform;
import io.polylink.core.internal.endpoint.SystemEndpoint;
import io.polylink.core.internal.wire.FuzzFrames;
import io.polylink.spi.FrameReceiver;
import io.polylink.spi.Transform;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Real contexts with one endpoint whose handlers read whatever a frame asks them to, for feeding
 * frames to the core's decoder the way a method would: a fresh context and connection per batch
 * (so a batch depends on nothing before it), stop at the first refused frame, close.
 *
 * <p>The handlers check the contract of {@link MessageBuffer}: a read of bad bytes may throw
 * {@link MalformedMessageException}, nothing else; a startpoint read from a message must survive
 * its text and reference forms unchanged. What they see wrong is rethrown by {@link #feed}.
 */
final class FrameHarness implements AutoCloseable {

    /** Small, so the size bounds are within a fuzzer's reach. */
    static final int MAX_MESSAGE_SIZE = 4096;
    /** Reads the payload as a script of {@link FuzzFrames} operations, on the receiving thread. */
    static final int SCRIPT = 1;
    /** The same script on the context's executor: reads a detached copy. */
    static final int SCRIPT_LATER = 2;
    /** Always throws: the context must count it and go on. */
    static final int FAILING = 3;
    /** Proves the context still serves a healthy link after a batch. */
    static final int HEALTH = 4;
    private static final long HEALTH_VALUE = 0x5eedcafe_f00dL;

    /** Where a frame sits in the buffer a method hands over; the decoder must not care. */
    enum Placement {
        WRAPPED {
            @Override
            ByteBuffer place(byte[] frame) {
                return ByteBuffer.wrap(frame);
            }
        },
        /** Mid-array, with bytes on both sides that are not part of the frame. */
        POSITIONED {
            @Override
            ByteBuffer place(byte[] frame) {
                byte[] room = new byte[frame.length + 8];
                Arrays.fill(room, (byte) 0xA5);
                System.arraycopy(frame, 0, room, 5, frame.length);
                return ByteBuffer.wrap(room, 5, frame.length);
            }
        },
        /** A slice: position 0 but a non-zero array offset. */
        SLICED {
            @Override
            ByteBuffer place(byte[] frame) {
                return POSITIONED.place(frame).slice();
            }
        },
        DIRECT {
            @Override
            ByteBuffer place(byte[] frame) {
                return ByteBuffer.allocateDirect(frame.length).put(frame).flip();
            }
        },
        READ_ONLY {
            @Override
            ByteBuffer place(byte[] frame) {
                return POSITIONED.place(frame).asReadOnlyBuffer();
            }
        };

        private static final Placement[] VALUES = values();

        abstract ByteBuffer place(byte[] frame);

        static Placement of(int selector) {
            return VALUES[Math.floorMod(selector, VALUES.length)];
        }
    }

    /**
     * What a batch did; equal for equal frames wherever they sit.
     *
     * @param accepted frames onFrame took
     * @param refused whether a frame was refused (and the connection closed)
     * @param scripts handler scripts run
     * @param malformedReads scripts stopped by {@link MalformedMessageException}
     * @param startpoints startpoints read and checked
     */
    record Outcome(int accepted, boolean refused, int scripts, int malformedReads, int startpoints) {}

    /** Without a stack trace: filling one in for every input that reaches it slows the fuzzer, and nobody reads it. */
    private static final class HandlerFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        HandlerFailure() {
            super("a handler that always fails", null, false, false);
        }
    }

    /**
     * How {@link ChannelReceiver#onFrame} begins a refusal when something other than the documented
     * exceptions came out of decoding. The only transform here throws nothing else, so it marks a
     * bug in the core that the catch-all would otherwise turn into a quiet refusal.
     */
    static final String DECODER_FAILURE = "transform failed on a frame";
    /** Longest log line a frame may cause: peer text in it must be bounded. */
    static final int MAX_LOG_LINE = 2048;
    /** The first endpoint of a fresh context after its system endpoint, which is what every batch gets. */
    static final int ENDPOINT = SystemEndpoint.ID + 1;

    private final List<Transform> transforms;
    /** The core's configuration of each batch's context, besides its message size and threads. */
    private final Map<String, String> config;
    /** Held: the logging framework keeps loggers weakly, and with them our handler. */
    private final Logger coreLog = Logger.getLogger("io.polylink.core");
    private final boolean coreLogWasForwarded = coreLog.getUseParentHandlers();
    private final List<String> logged = Collections.synchronizedList(new ArrayList<>());
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            logged.add(record.getMessage());
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };

    /** @param more transforms to install besides {@link RepeatTransform} */
    FrameHarness(Transform... more) {
        this(Map.of(), more);
    }

    /**
     * @param config the core's configuration of each batch's context, such as {@code require=rle}
     * @param more transforms to install besides {@link RepeatTransform}
     */
    FrameHarness(Map<String, String> config, Transform... more) {
        List<Transform> all = new ArrayList<>(List.of(new RepeatTransform()));
        all.addAll(List.of(more));
        this.transforms = List.copyOf(all);
        this.config = Map.copyOf(config);
        // Each batch has a fresh context, so its log is never rate-limited: every refusal is seen
        // here, and none reaches the console.
        coreLog.addHandler(capture);
        coreLog.setUseParentHandlers(false);
    }

    int endpointId() {
        return ENDPOINT;
    }

    /**
     * Feeds frames on one new connection of a fresh context, in order, as a method would: stops at
     * the first refused frame and closes the connection.
     *
     * @throws AssertionError if onFrame threw, decoding failed with something other than the
     *     documented exceptions, a handler saw something other than a
     *     {@link MalformedMessageException}, the channel outlived its connection, or the context no
     *     longer serves a healthy link
     */
    Outcome feed(List<byte[]> frames, Placement placement) {
        logged.clear();
        try (Batch batch = new Batch()) {
            return batch.run(frames, placement);
        }
    }

    private Map<String, Object> batchConfig() {
        Map<String, Object> all = new HashMap<>(config);
        all.put("maxMessageSize", MAX_MESSAGE_SIZE);
        all.put("handlerThreads", 1);
        return all;
    }

    /** One context, one endpoint with the handlers, and what they saw. */
    private final class Batch implements AutoCloseable {
        private final EmbeddedContext embedded = EmbeddedContext.open(batchConfig());
        private final Context context = embedded.context();
        private final Endpoint endpoint;
        private final AtomicInteger scripts = new AtomicInteger();
        private final AtomicInteger malformedReads = new AtomicInteger();
        private final AtomicInteger startpoints = new AtomicInteger();
        private final AtomicInteger healthy = new AtomicInteger();
        private final AtomicInteger inlineRuns = new AtomicInteger();
        /** A permit for each executor handler run that finished. */
        private final Semaphore laterRuns = new Semaphore(0);
        private final AtomicReference<Throwable> unexpected = new AtomicReference<>();

        Batch() {
            transforms.forEach(embedded::add);
            endpoint = context.createEndpoint();
            if (endpoint.id() != ENDPOINT) {
                throw new AssertionError("first endpoint of a fresh context is " + endpoint.id()
                    + ", the seeds address " + ENDPOINT + ": regenerate them (FuzzSeeds)");
            }
            endpoint.register(SCRIPT, (e, m) -> {
                inlineRuns.incrementAndGet();
                script(m);
            })
                .register(SCRIPT_LATER, Delivery.EXECUTOR, (e, m) -> {
                    try {
                        script(m);
                    } finally {
                        laterRuns.release();
                    }
                })
                .register(FAILING, (e, m) -> {
                    inlineRuns.incrementAndGet();
                    throw new HandlerFailure();
                })
                .register(HEALTH, (e, m) -> {
                    inlineRuns.incrementAndGet();
                    if (m.getLong() == HEALTH_VALUE) {
                        healthy.incrementAndGet();
                    }
                });
        }

        Outcome run(List<byte[]> frames, Placement placement) {
            RecordingConnection connection = new RecordingConnection(FuzzFrames.FAR_CONTEXT);
            FrameReceiver receiver = connection.attachTo(Internals.channels(embedded));
            int accepted = 0;
            boolean refused = false;
            try {
                for (byte[] frame : frames) {
                    boolean taken;
                    try {
                        taken = receiver.onFrame(placement.place(frame));
                    } catch (Throwable t) {
                        throw new AssertionError("onFrame threw instead of refusing frame " + (accepted + 1)
                            + " " + HexFormat.of().formatHex(frame) + " (" + placement + ")", t);
                    }
                    if (!taken) {
                        refused = true;
                        break;
                    }
                    accepted++;
                }
            } finally {
                connection.close();
            }
            awaitExecutorHandlers();
            Throwable problem = unexpected.getAndSet(null);
            if (problem != null) {
                throw new AssertionError("a handler saw " + problem, problem);
            }
            synchronized (logged) {
                logged.forEach(Batch::checkLogLine);
            }
            checkForgotten(connection, receiver);
            checkStillServes();
            return new Outcome(accepted, refused, scripts.get(), malformedReads.get(), startpoints.get());
        }

        /**
         * Checks one line the context logged. A refusal reads {@code closing <channel>: <reason>};
         * the reason's first words are the core's own, so a peer cannot fake the marker there.
         */
        private static void checkLogLine(String line) {
            int reason = line.indexOf(": ") + 2;
            if (line.startsWith("closing ") && line.startsWith(DECODER_FAILURE, reason)) {
                throw new AssertionError("decoding failed on its own, not on bad input: " + line);
            }
            if (line.length() > MAX_LOG_LINE) {
                throw new AssertionError("a frame made the context log a line of " + line.length()
                    + " characters: " + line.substring(0, 200) + "...");
            }
            for (int i = 0; i < line.length(); i++) {
                char c = line.charAt(i);
                if (c < 0x20 || c > 0x7e) {
                    // A peer's bytes copied into the log could forge or break lines.
                    throw new AssertionError("a frame made the context log character 0x"
                        + Integer.toHexString(c) + " at " + i + ": "
                        + escaped(line));
                }
            }
        }

        private static String escaped(String line) {
            StringBuilder out = new StringBuilder(line.length());
            line.chars().forEach(c -> out.append(c >= 0x20 && c <= 0x7e ? String.valueOf((char) c)
                : String.format("\\u%04x", c)));
            return out.toString();
        }

        /** Runs a handler script: one operation byte, then what it reads, until the message ends. */
        private void script(MessageBuffer m) {
            scripts.incrementAndGet();
            try {
                while (m.remaining() > 0) {
                    switch (m.getByte() & 0x0F) {
                        case FuzzFrames.OP_BYTE -> m.getByte();
                        case FuzzFrames.OP_BOOLEAN -> m.getBoolean();
                        case FuzzFrames.OP_SHORT -> m.getShort();
                        case FuzzFrames.OP_INT -> m.getInt();
                        case FuzzFrames.OP_LONG -> m.getLong();
                        case FuzzFrames.OP_FLOAT -> m.getFloat();
                        case FuzzFrames.OP_DOUBLE -> m.getDouble();
                        case FuzzFrames.OP_BYTES -> m.getBytes();
                        case FuzzFrames.OP_STRING -> m.getString();
                        case FuzzFrames.OP_STARTPOINT -> check(m.getStartpoint());
                        case FuzzFrames.OP_RAW -> {
                            int count = m.getByte() & 0x3F;
                            m.getRaw(new byte[count], 0, count);
                        }
                        default -> { } // a no-op, so the fuzzer can pad
                    }
                }
            } catch (MalformedMessageException allowed) {
                malformedReads.incrementAndGet();
            } catch (Throwable t) {
                unexpected.compareAndSet(null, t);
            }
        }

        /** A startpoint read from a message must come back unchanged through both of its forms. */
        private void check(Startpoint read) {
            startpoints.incrementAndGet();
            try {
                checkForms(read);
            } catch (MalformedMessageException e) {
                // The bytes were already read and accepted: refusing them now is a codec bug.
                throw new AssertionError("a startpoint read from a message did not re-read", e);
            }
        }

        private void checkForms(Startpoint read) {
            List<Startpoint.Target> targets = read.targets();
            if (targets.isEmpty()) {
                throw new AssertionError("startpoint with no target was read");
            }
            Startpoint fromText = context.startpoint(read.toText());
            if (!fromText.targets().equals(targets)) {
                throw new AssertionError("text form changed " + targets + " into " + fromText.targets());
            }
            MessageBuffer again = context.allocateBuffer(64).putStartpoint(read);
            Startpoint fromReference = again.getStartpoint();
            if (!fromReference.targets().equals(targets) || again.remaining() != 0) {
                throw new AssertionError("reference form changed " + targets + " into " + fromReference.targets());
            }
            List<Explanation> explained = read.explain();
            if (explained.size() != targets.size()) {
                throw new AssertionError(explained.size() + " explanations for " + targets.size() + " targets");
            }
        }

        /**
         * Waits for the executor handlers: every delivery that did not run inline ran
         * {@link #SCRIPT_LATER}. Most batches have none, and then nothing waits.
         */
        private void awaitExecutorHandlers() {
            long later = endpoint.statistics().messagesReceived() - inlineRuns.get();
            try {
                if (later > 0 && !laterRuns.tryAcquire((int) later, 10, TimeUnit.SECONDS)) {
                    throw new AssertionError("executor handlers did not finish: " + laterRuns.availablePermits()
                        + " of " + later + " ran");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for executor handlers", e);
            }
        }

        /** A closed connection's channel must be gone, or every bad peer would leak one. */
        private void checkForgotten(RecordingConnection connection, FrameReceiver old) {
            FrameReceiver again = Internals.channels(embedded).open(connection);
            again.onClosed(null);
            if (again == old) {
                throw new AssertionError("the channel of a closed connection is still registered");
            }
        }

        /** Over an {@code rle} stack, which a harness that requires a stack requires. */
        private void checkStillServes() {
            int before = healthy.get();
            RecordingConnection connection = new RecordingConnection(FuzzFrames.FAR_CONTEXT);
            FrameReceiver receiver = connection.attachTo(Internals.channels(embedded));
            byte[] payload = RepeatTransform.encode(ByteBuffer.allocate(8).putLong(HEALTH_VALUE).array());
            boolean taken = receiver.onFrame(ByteBuffer.wrap(FuzzFrames.stackAnnouncement(1, RepeatTransform.NAME)))
                && receiver.onFrame(ByteBuffer.wrap(FuzzFrames.frame(0, 1, HEALTH, endpoint.id(), payload)));
            connection.close();
            if (!taken || healthy.get() != before + 1) {
                throw new AssertionError("the context no longer serves a healthy link");
            }
        }

        @Override
        public void close() {
            embedded.close();
        }
    }

    /** Puts the core's log back, and checks no context left a thread behind. */
    @Override
    public void close() {
        coreLog.removeHandler(capture);
        coreLog.setUseParentHandlers(coreLogWasForwarded);
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("polylink-")) {
                try {
                    t.join(TimeUnit.SECONDS.toMillis(5));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                if (t.isAlive()) {
                    throw new AssertionError("thread " + t.getName() + " outlived its closed context");
                }
            }
        }
    }
}
