package io.polylink.bench.internal.pingpong;

import io.polylink.bench.internal.Sizes;
import java.util.ArrayList;
import java.util.List;

/**
 * The pingpong command's arguments, parsed and checked before any process starts.
 *
 * @param impls the implementations to measure, in order
 * @param sizes message sizes in bytes, in order
 * @param count round trips measured per size (fewer for large sizes, see {@link #countFor})
 * @param warmup round trips per unmeasured batch, per size (scaled like {@code count})
 * @param idle the tcp method's idle strategy for {@code polylink:*}
 * @param await how a client's measuring thread waits for a reply another thread received
 *     ({@code netty-nio}, {@code polylink:*}): {@link ReplySignal#SPIN}, {@link ReplySignal#PARK} or
 *     {@link #AUTO} (see {@link #waitOn})
 * @param driver who sends the next message: {@link #APP}, the client's measuring thread, or
 *     {@link #HANDLER}, the reply handler on the thread that received the reply
 * @param csv print CSV instead of the table
 * @param timeoutSeconds bound on one implementation's whole run (both processes)
 * @param repeat runs of the whole implementation list, one after the other
 * @param interleave whether every implementation's processes run at once, and each run measures
 *     them in turn (see {@link #checkInterleavable})
 * @param jvmOptions extra options for every child JVM, e.g. to profile it
 */
record PingPongOptions(List<String> impls, List<Integer> sizes, int count, int warmup, String idle, String await, String driver, boolean csv,
                       int timeoutSeconds, int repeat, boolean interleave, List<String> jvmOptions) {

    static final List<String> IMPLS = Peers.PINGPONG;
    static final List<Integer> SIZES = List.of(16, 256, 1024, 16 << 10, 64 << 10, 1 << 20);
    static final List<String> IDLE = List.of("spin", "spin-then-block", "block");
    static final String AUTO = "auto";
    static final List<String> WAIT = List.of(AUTO, ReplySignal.SPIN, ReplySignal.PARK, ReplySignal.PROGRESS);
    /** Spinning waits need a core each: the client's measuring thread and an I/O thread per side, plus one spare. */
    static final int SPIN_CPUS = 4;
    static final String APP = "app";
    static final String HANDLER = "handler";
    static final List<String> DRIVERS = List.of(APP, HANDLER);
    /** Largest size: below the core's default maximum message size (8 MiB) and tcp's queue limit. */
    static final int MAX_SIZE = 4 << 20;
    /** Large sizes get fewer round trips: about this many bytes each way, but at least {@link #MIN_COUNT}. */
    static final long BYTES_PER_SIZE = 64L << 20;
    static final int MIN_COUNT = 500;
    static final int MIN_WARMUP = 200;
    /** Bytes streamed one way per size for MB/s, within [count, 20 x count] messages. */
    static final long STREAM_BYTES = 1L << 30;
    static final int STREAM_FACTOR = 20;
    static final int MAX_REPEAT = 100;
    /**
     * What may be interleaved: implementations whose idle processes give up their cores (raw-nio's
     * server blocks once idle; the shared-memory servers park between polls once quiet for 10 ms,
     * polylink's shm poller once quiet for 100 ms even with spin).
     */
    static final List<String> INTERLEAVABLE = List.of(Peers.RAW_NIO, Peers.RAW_NIO_BLOCKING, Peers.NETTY_NIO,
        Peers.POLYLINK_TCP, Peers.POLYLINK_LZ4_TCP, Peers.POLYLINK_AEAD_TCP, Peers.RAW_MAILBOX, Peers.RAW_SHM,
        Peers.AERON_IPC, Peers.POLYLINK_SHM);

    static final PingPongOptions DEFAULTS = new PingPongOptions(IMPLS, SIZES, 20_000, 10_000, "spin", AUTO, APP, false, 600,
        1, false, List.of());

    PingPongOptions {
        if (await.equals(ReplySignal.PROGRESS) && impls.contains(Peers.NETTY_NIO)) {
            throw new IllegalArgumentException("--wait progress calls Context.progress() and is for polylink:* "
                + "clients; measure " + Peers.NETTY_NIO + " with --wait spin or park");
        }
        impls = List.copyOf(impls);
        sizes = List.copyOf(sizes);
        jvmOptions = List.copyOf(jvmOptions);
    }

    /**
     * @param cpus the processors available
     * @return the wait to use: as given, or for {@link #AUTO} {@link ReplySignal#SPIN} with at
     *     least {@link #SPIN_CPUS} processors and {@link ReplySignal#PARK} with fewer, where a
     *     third spinning thread would wait for the scheduler instead of for the reply
     */
    String waitOn(int cpus) {
        return !await.equals(AUTO) ? await : cpus >= SPIN_CPUS ? ReplySignal.SPIN : ReplySignal.PARK;
    }

    /**
     * @throws IllegalArgumentException if {@link #interleave} is set for an implementation or an
     *     idle strategy that keeps a core busy while its processes wait for their turn
     */
    PingPongOptions checkInterleavable() {
        if (!interleave) {
            return this;
        }
        for (String impl : impls) {
            if (!INTERLEAVABLE.contains(impl)) {
                throw new IllegalArgumentException("--interleave cannot run " + impl + ": its processes poll while idle "
                    + "and would take cores from the one measured; interleave " + String.join(", ", INTERLEAVABLE)
                    + ", or run " + impl + " without --interleave");
            }
            if (impl.startsWith("polylink:") && !impl.equals(Peers.POLYLINK_SHM) && idle.equals("spin")) {
                throw new IllegalArgumentException("--interleave needs --idle spin-then-block or block for " + impl
                    + ": with spin its idle I/O threads keep two cores busy while the others are measured");
            }
        }
        return this;
    }

    /** @return whether the reply handler sends the next message */
    boolean handlerDriven() {
        return driver.equals(HANDLER);
    }

    /** @return round trips to measure at {@code size}: {@code count}, fewer when that would move much more than 64 MiB */
    int countFor(int size) {
        return scaled(count, size, MIN_COUNT);
    }

    /** @return round trips to discard at {@code size} before measuring */
    int warmupFor(int size) {
        return scaled(warmup, size, MIN_WARMUP);
    }

    /** @return messages to stream one way at {@code size} for the bandwidth figure */
    int streamFor(int size) {
        int rounds = countFor(size);
        long byBytes = STREAM_BYTES / size;
        return (int) Math.max(rounds, Math.min((long) STREAM_FACTOR * rounds, byBytes));
    }

    private static int scaled(int n, int size, int floor) {
        return (int) Math.min(n, Math.max(floor, BYTES_PER_SIZE / size));
    }

    /**
     * @param args the arguments after {@code pingpong}
     * @return the options, defaults where an argument is absent
     * @throws IllegalArgumentException naming the argument that is wrong
     */
    static PingPongOptions parse(String[] args) {
        return parse(args, IMPLS);
    }

    /**
     * @param args the arguments after the command
     * @param allowed the implementations {@code --impl} may name
     * @return the options, defaults where an argument is absent
     * @throws IllegalArgumentException naming the argument that is wrong
     */
    static PingPongOptions parse(String[] args, List<String> allowed) {
        PingPongOptions o = DEFAULTS;
        List<String> impls = o.impls();
        List<Integer> sizes = o.sizes();
        int count = o.count();
        int warmup = o.warmup();
        String idle = o.idle();
        String await = o.await();
        String driver = o.driver();
        boolean csv = false;
        int timeout = o.timeoutSeconds();
        int repeat = o.repeat();
        boolean interleave = false;
        List<String> jvm = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--csv" -> csv = true;
                case "--interleave" -> interleave = true;
                case "--impl" -> impls = impls(value(args, ++i, arg), allowed);
                case "--sizes" -> sizes = sizes(value(args, ++i, arg));
                case "--count" -> count = positive(value(args, ++i, arg), arg, 1);
                case "--warmup" -> warmup = positive(value(args, ++i, arg), arg, 0);
                case "--timeout" -> timeout = positive(value(args, ++i, arg), arg, 1);
                case "--repeat" -> repeat = atMost(positive(value(args, ++i, arg), arg, 1), arg, MAX_REPEAT);
                case "--jvm-opt" -> jvm.add(value(args, ++i, arg));
                case "--idle" -> idle = oneOf(value(args, ++i, arg), arg, IDLE);
                case "--wait" -> await = oneOf(value(args, ++i, arg), arg, WAIT);
                case "--driver" -> driver = oneOf(value(args, ++i, arg), arg, DRIVERS);
                default -> throw new IllegalArgumentException("unknown argument '" + arg + "'");
            }
        }
        return new PingPongOptions(impls, sizes, count, warmup, idle, await, driver, csv, timeout, repeat, interleave, jvm);
    }

    private static int atMost(int n, String name, int max) {
        if (n > max) {
            throw new IllegalArgumentException(name + " " + n + " is above " + max);
        }
        return n;
    }

    private static String value(String[] args, int i, String name) {
        if (i >= args.length || args[i].startsWith("--")) {
            throw new IllegalArgumentException(name + " needs a value");
        }
        return args[i];
    }

    private static String oneOf(String value, String name, List<String> allowed) {
        if (!allowed.contains(value)) {
            throw new IllegalArgumentException(name + " " + value + " is not one of " + String.join(", ", allowed));
        }
        return value;
    }

    private static int positive(String text, String name, int min) {
        try {
            int n = Integer.parseInt(text.strip().replace("_", ""));
            if (n < min) {
                throw new IllegalArgumentException(name + " " + text + " is below " + min);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " '" + text + "' is not a whole number");
        }
    }

    static List<String> impls(String list, List<String> allowed) {
        List<String> out = new ArrayList<>();
        for (String item : items(list, "--impl")) {
            if (!allowed.contains(item)) {
                throw new IllegalArgumentException("--impl " + item + " is not one of " + String.join(", ", allowed));
            }
            if (out.contains(item)) {
                throw new IllegalArgumentException("--impl names " + item + " twice");
            }
            out.add(item);
        }
        return out;
    }

    /** Sizes in bytes, with an optional {@code k} (KiB) or {@code m} (MiB) suffix: {@code 16,1k,64k,1m}. */
    static List<Integer> sizes(String list) {
        return Sizes.parse(list, "--sizes", MAX_SIZE);
    }

    private static List<String> items(String list, String name) {
        List<String> out = new ArrayList<>();
        for (String item : list.split(",")) {
            if (!item.isBlank()) {
                out.add(item.strip());
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(name + " needs at least one item");
        }
        return out;
    }
}
