package io.polylink.method.crypto.internal;

import io.polylink.ContextId;
import io.polylink.MessageTooLargeException;
import io.polylink.spi.BufferSource;
import io.polylink.spi.TransformSession;
import io.polylink.testkit.SampleData;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Map;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/**
 * Measures the aead transform's encode and decode against javax.crypto.Cipher doing the same
 * work with the same provider, cipher and key size: per message, init with a fresh nonce, 8 bytes
 * of associated data, seal into a reused buffer; then init, the same associated data, open into
 * another. Not a test (no timed assertions); run it by hand, it prints both rates and their ratio.
 *
 * <pre>
 * mvn -B -o -q -pl method-crypto -am test-compile dependency:build-classpath \
 *     -Dmdep.outputFile=target/test.classpath
 * java -cp method-crypto/target/test-classes:method-crypto/target/classes:$(cat method-crypto/target/test.classpath) \
 *     io.polylink.method.crypto.internal.AeadThroughput [seconds per round] [rounds]
 * </pre>
 *
 * <p>Data: JSON-like log records (see {@link SampleData}); the content does not matter to the
 * cipher. The bench module is to take this over.
 */
public final class AeadThroughput {

    private static final int[] SIZES = {4 << 10, 64 << 10, 1 << 20};
    private static volatile long sink;

    private AeadThroughput() {}

    /** A reused heap buffer like the core's scratch buffers. */
    private static final class Scratch implements BufferSource {
        private ByteBuffer buffer = ByteBuffer.allocate(0);

        @Override
        public ByteBuffer acquire(int capacity) {
            if (capacity > (16 << 20)) {
                throw new MessageTooLargeException("over the measuring bound");
            }
            if (buffer.capacity() < capacity) {
                buffer = ByteBuffer.allocate(capacity);
            }
            return buffer.clear();
        }
    }

    public static void main(String[] args) throws Exception {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 1.0;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        System.out.printf("%s; %d rounds of %.1f s each, alternating; median MB per CPU-second of payload%n",
            System.getProperty("java.vm.version"), rounds, seconds);
        for (String provider : new String[] {"conscrypt", "jdk"}) {
            for (String cipher : new String[] {"aes-256-gcm", "chacha20-poly1305"}) {
                measure(provider, cipher, seconds, rounds);
            }
        }
    }

    private static void measure(String provider, String cipherName, double seconds, int rounds) throws Exception {
        Map<String, Object> settings = Map.of("provider", provider, "cipher", cipherName);
        AeadTransform transform = SessionPair.transform(settings);
        Suite suite = Suite.parse(cipherName);
        for (int size : SIZES) {
            byte[] data = SampleData.records(size, size);
            ByteBuffer header = SessionPair.header(1, 2);
            try (SessionPair pair = SessionPair.between(ContextId.random(), ContextId.random(),
                transform, transform)) {
                TransformSession sender = pair.atA;
                TransformSession receiver = pair.atB;
                Scratch sealedOut = new Scratch();
                Scratch openedOut = new Scratch();
                ByteBuffer input = ByteBuffer.wrap(data);
                Runnable candidate = () -> {
                    ByteBuffer sealed = sender.encode(header.position(0), input.clear(), sealedOut);
                    ByteBuffer opened = receiver.decode(header.position(0), sealed, openedOut);
                    sink += opened.get(opened.limit() - 1);
                };
                Cipher seal = transform.provider().cipher(suite);
                Cipher open = transform.provider().cipher(suite);
                SecretKeySpec key = new SecretKeySpec(new byte[Suite.KEY_LENGTH], suite.keyAlgorithm());
                byte[] aad = new byte[8];
                byte[] nonce = new byte[Suite.NONCE_LENGTH];
                byte[] sealed = new byte[size + Suite.TAG_LENGTH];
                byte[] opened = new byte[size];
                long[] counter = {0};
                Runnable raw = () -> {
                    try {
                        AeadFrame.nonce(counter[0]++, nonce);
                        seal.init(Cipher.ENCRYPT_MODE, key, suite.parameters(nonce));
                        seal.updateAAD(aad);
                        int n = seal.doFinal(data, 0, size, sealed, 0);
                        open.init(Cipher.DECRYPT_MODE, key, suite.parameters(nonce));
                        open.updateAAD(aad);
                        int back = open.doFinal(sealed, 0, n, opened, 0);
                        sink += opened[back - 1];
                    } catch (GeneralSecurityException e) {
                        throw new IllegalStateException(e);
                    }
                };
                report(provider + " " + cipherName, size, raw, candidate, seconds, rounds);
            }
        }
    }

    /** Runs both alternately after a warm-up and prints median rates, their ratio and the spread. */
    private static void report(String what, int size, Runnable raw, Runnable candidate, double seconds, int rounds) {
        run(raw, seconds);
        run(candidate, seconds);
        double[] rawRates = new double[rounds];
        double[] candidateRates = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            rawRates[r] = run(raw, seconds) * size / 1e6;
            candidateRates[r] = run(candidate, seconds) * size / 1e6;
        }
        double rawMedian = median(rawRates);
        double candidateMedian = median(candidateRates);
        System.out.printf("%-27s %8d B: raw %8.1f MB/cpu-s [%.1f..%.1f]  transform %8.1f MB/cpu-s [%.1f..%.1f]  ratio %.3f%n",
            what, size, rawMedian, min(rawRates), max(rawRates), candidateMedian, min(candidateRates),
            max(candidateRates), candidateMedian / rawMedian);
    }

    /**
     * @return operations per second of this thread's CPU time, over about {@code seconds} of wall
     *     time: on a busy machine other processes take wall time from the loop, much less its CPU time
     */
    private static double run(Runnable op, double seconds) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long limit = (long) (seconds * 1e9);
        long start = System.nanoTime();
        long cpuStart = threads.getCurrentThreadCpuTime();
        long ops = 0;
        do {
            for (int i = 0; i < 8; i++) {
                op.run();
            }
            ops += 8;
        } while (System.nanoTime() - start < limit);
        return ops / ((threads.getCurrentThreadCpuTime() - cpuStart) / 1e9);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static double min(double[] values) {
        return Arrays.stream(values).min().orElse(0);
    }

    private static double max(double[] values) {
        return Arrays.stream(values).max().orElse(0);
    }
}
