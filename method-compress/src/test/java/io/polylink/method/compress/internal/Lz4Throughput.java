package io.polylink.method.compress.internal;

import io.polylink.ContextId;
import io.polylink.MessageTooLargeException;
import io.polylink.spi.BufferSource;
import io.polylink.spi.TransformSession;
import io.polylink.testkit.SampleData;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * Measures the lz4 transform's encode and decode against lz4-java doing the same work with the
 * same instance and block size: compress a message into a reused buffer, decompress it into
 * another. Not a test (no timed assertions); run it by hand, it prints both rates and their ratio.
 *
 * <pre>
 * mvn -B -o -q -pl method-compress -am test-compile dependency:build-classpath \
 *     -Dmdep.outputFile=target/test.classpath
 * java -cp method-compress/target/test-classes:method-compress/target/classes:$(cat method-compress/target/test.classpath) \
 *     io.polylink.method.compress.internal.Lz4Throughput [seconds per round] [rounds]
 * </pre>
 *
 * <p>Data: JSON-like log records (see {@link SampleData}), which lz4 shrinks to about a third.
 * The bench module is to take this over.
 */
public final class Lz4Throughput {

    private static final int[] SIZES = {4 << 10, 64 << 10, 1 << 20};
    private static volatile long sink;

    private Lz4Throughput() {}

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

    public static void main(String[] args) {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 1.0;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        Lz4Transform transform = new Lz4Transform(Map.of());
        LZ4Factory factory = LZ4Factory.fastestInstance();
        LZ4Compressor compressor = factory.fastCompressor();
        LZ4SafeDecompressor decompressor = factory.safeDecompressor();
        System.out.printf("lz4-java %s; %s; %d rounds of %.1f s each, alternating; median MB per CPU-second of input%n",
            factory, System.getProperty("java.vm.version"), rounds, seconds);
        for (int size : SIZES) {
            byte[] data = SampleData.records(size, size);
            ByteBuffer header = ByteBuffer.allocate(8);
            TransformSession session = transform.open(FakePeer.between(ContextId.random(), ContextId.random()));
            Scratch encodeOut = new Scratch();
            Scratch decodeOut = new Scratch();
            ByteBuffer input = ByteBuffer.wrap(data);
            Runnable candidate = () -> {
                ByteBuffer encoded = session.encode(header, input.clear(), encodeOut);
                ByteBuffer decoded = session.decode(header, encoded, decodeOut);
                sink += decoded.get(decoded.limit() - 1);
            };
            ByteBuffer compressed = ByteBuffer.allocate(compressor.maxCompressedLength(size));
            ByteBuffer restored = ByteBuffer.allocate(size);
            Runnable raw = () -> {
                int length = compressor.compress(input.clear(), 0, size, compressed, 0, compressed.capacity());
                int back = decompressor.decompress(compressed, 0, length, restored, 0, size);
                sink += restored.get(back - 1);
            };
            int wire = session.encode(header, input.clear(), new Scratch()).remaining();
            report("lz4", size, String.format("ratio %.2f", (double) wire / size), raw, candidate, seconds, rounds);
        }
    }

    /** Runs both alternately after a warm-up and prints median rates, their ratio and the spread. */
    static void report(String what, int size, String note, Runnable raw, Runnable candidate, double seconds, int rounds) {
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
        System.out.printf("%-5s %8d B (%s): raw %9.1f MB/cpu-s [%.1f..%.1f]  transform %9.1f MB/cpu-s [%.1f..%.1f]  ratio %.3f%n",
            what, size, note, rawMedian, min(rawRates), max(rawRates), candidateMedian, min(candidateRates),
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
