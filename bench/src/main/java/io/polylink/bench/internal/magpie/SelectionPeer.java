package io.polylink.bench.internal.magpie;

import io.polylink.Context;
import io.polylink.Endpoint;
import io.polylink.Delivery;
import io.polylink.MessageBuffer;
import io.polylink.Startpoint;
import io.polylink.bench.internal.BenchTransforms;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.method.tcp.internal.TcpMethod;
import io.polylink.policy.plogp.internal.CostModelPolicy;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A peer of {@code bench magpie}'s size-dependent selection, in its cluster's namespace.
 *
 * <pre>
 * SelectionPeer server ADDRESS                                   prints SERVER STARTPOINT, answers until its input ends
 * SelectionPeer client ADDRESS MODELS SERVER SIZES REPEAT        times round trips to SERVER from two contexts
 * </pre>
 *
 * The client's two contexts differ only in their policy: {@code first-applicable}, and
 * {@code cost-model} over the model file. The server's table offers {@code tcp}, then
 * {@code lz4/tcp}. Each round trip sends SIZE bytes, zeros or random, and the server answers 16
 * bytes: {@code RESULT POLICY PAYLOAD SIZE REPETITION MICROS}. The policies and payloads take
 * turns at each size and repetition, the first policy alternating; {@code EXPLAIN} lines give the
 * cost-model policy's explanation of its link.
 */
public final class SelectionPeer {

    static final String FIRST = "first-applicable";
    static final String COST = "cost-model";
    static final List<String> PAYLOADS = List.of("zeros", "random");
    private static final int MAX_MESSAGE = 8 << 20;
    private static final int TARGET = 1;
    private static final int ANSWER = 2;
    /** Small round trips before the timed ones, so that the JIT has compiled their path. */
    private static final int WARM_UP = 200;
    private static final long ROUND_TRIP_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(120);

    private SelectionPeer() {}

    public static void main(String[] args) throws Exception {
        if (args[0].equals("server")) {
            serve(args[1]);
        } else {
            measure(args[1], args[2], args[3], Arrays.stream(args[4].split(",")).mapToInt(Integer::parseInt).toArray(),
                Integer.parseInt(args[5]));
        }
    }

    private static EmbeddedContext context(String address) {
        return EmbeddedContext.open(MAX_MESSAGE + 4096, 2, List.of("tcp", "lz4/tcp"))
            .add(new TcpMethod(Map.of("bindAddress", address)), 50)
            .add(BenchTransforms.lz4());
    }

    private static void serve(String address) throws IOException {
        try (EmbeddedContext server = context(address)) {
            Context c = server.context();
            Endpoint target = c.createEndpoint().register(TARGET, Delivery.INLINE,
                (e, m) -> m.getStartpoint().send(ANSWER, c.allocateBuffer(16).putLong(0).putLong(0)));
            System.out.println("SERVER " + target.startpoint().toText());
            System.out.flush();
            while (System.in.read() >= 0) {
                // answers on the method's threads until the bench closes this input
            }
        }
    }

    /** One client context and what it needs for round trips. */
    private static final class Client implements AutoCloseable {
        final String policy;
        final EmbeddedContext embedded;
        final Startpoint server;
        final Startpoint answerTo;
        final AtomicLong answers = new AtomicLong();
        final MessageBuffer message;

        Client(String policy, String address, String models, String serverText) {
            this.policy = policy;
            this.embedded = context(address);
            if (policy.equals(COST)) {
                embedded.add(new CostModelPolicy(Path.of(models), 0.05));
            }
            Context c = embedded.context();
            this.answerTo = c.createEndpoint().register(ANSWER, Delivery.INLINE, (e, m) -> answers.incrementAndGet())
                .startpoint();
            this.server = c.startpoint(serverText);
            this.message = c.allocateBuffer(MAX_MESSAGE);
        }

        /** @return the round trip's time in nanoseconds */
        long roundTrip(byte[] payload, int size) {
            long before = answers.get();
            long start = System.nanoTime();
            server.send(TARGET, message.clear().putStartpoint(answerTo).putRaw(payload, 0, size));
            while (answers.get() == before) {
                if (System.nanoTime() - start > ROUND_TRIP_LIMIT_NANOS) {
                    throw new IllegalStateException(policy + ": no answer to " + size + " bytes within "
                        + TimeUnit.NANOSECONDS.toSeconds(ROUND_TRIP_LIMIT_NANOS) + " s; links: " + embedded.links());
                }
                LockSupport.parkNanos(20_000);
            }
            return System.nanoTime() - start;
        }

        @Override
        public void close() {
            embedded.close();
        }
    }

    private static void measure(String address, String models, String serverText, int[] sizes, int repeat) {
        int largest = Arrays.stream(sizes).max().orElse(1);
        byte[] zeros = new byte[largest];
        byte[] random = new byte[largest];
        new Random(42).nextBytes(random);
        try (Client first = new Client(FIRST, address, models, serverText);
             Client cost = new Client(COST, address, models, serverText)) {
            List<Client> clients = List.of(first, cost);
            for (Client c : clients) {
                for (int i = 0; i < WARM_UP; i++) {
                    c.roundTrip(i % 2 == 0 ? zeros : random, 64 + i % 2 * 16_000);
                }
            }
            for (int rep = 0; rep < repeat; rep++) {
                for (int size : sizes) {
                    for (String payload : PAYLOADS) {
                        for (int k = 0; k < 2; k++) {
                            Client c = clients.get((k + rep) % 2);
                            long nanos = c.roundTrip(payload.equals("zeros") ? zeros : random, size);
                            System.out.printf("RESULT %s %s %d %d %.1f%n", c.policy, payload, size, rep, nanos / 1000.0);
                        }
                    }
                }
                System.out.flush();
            }
            System.out.println("EXPLAIN the cost-model policy's choice, for the link:");
            cost.server.explain().get(0).toString().lines().skip(1).forEach(l -> System.out.println("EXPLAIN " + l));
            System.out.flush();
        }
    }
}
