package io.polylink.bench.internal.transforms;

import io.polylink.bench.internal.LoadAverage;
import io.polylink.bench.internal.Processors;
import io.polylink.bench.internal.Sizes;
import io.polylink.testkit.SampleData;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.crypto.Cipher;

/**
 * The {@code transforms} command: throughput of the lz4 and aead transforms against the raw
 * library doing the same work, in this process, one thread, same run.
 */
public final class TransformsCommand {

    static final String HELP = """
        usage: java -jar polylink-bench.jar transforms [--sizes LIST] [--seconds S] [--rounds N]
                    [--cipher aes-256-gcm|chacha20-poly1305] [--csv]

        Throughput of each transform against the raw library doing the same work, in this
        process, on one thread. One operation is a message there and back: encode, then decode
        what was encoded, each side of the transform with its own session as on a real
        connection (handshake done first), output into reused heap buffers.
          lz4   the transform (method-compress, default settings) against lz4-java's fastest
                instance, fast compressor and safe decompressor, one block per message, as the
                transform uses them
          aead  the transform (method-crypto, Conscrypt, pre-shared key set in the bench)
                against Cipher from the same Conscrypt with the same cipher and key
                size: per message init with a fresh nonce, the 12-byte frame header as
                associated data, seal; then init, the same, open
        Data: JSON-like log records (field names repeat, ids and times vary; testkit SampleData),
        which lz4 shrinks to about a third: the wire column shows by how much.
        Each side runs a warm-up round, then ROUNDS rounds of S seconds alternately; a rate is
        MB (10^6 bytes of input) per CPU-second of the measuring thread, so other processes on a
        busy machine cost wall time but hardly change the figures; the median round counts.

        options:
          --sizes LIST   bytes, k = KiB, m = MiB (default 256,4k,64k,1m; at most 4m)
          --seconds S    wall time per round (default 1.0)
          --rounds N     rounds per side (default 5)
          --cipher C     the aead cipher (default aes-256-gcm)
          --csv          print only the CSV header transform,size,raw_mb_per_s,polylink_mb_per_s,ratio
                         and one row per transform and size

        Targets, at 4 KiB and more: lz4 >= 0.90 and aead >= 0.85 of the raw rate.
        """;

    /** The targets apply from this size up. */
    static final int TARGET_FROM = 4 << 10;
    static final double LZ4_TARGET = 0.90;
    static final double AEAD_TARGET = 0.85;

    private TransformsCommand() {}

    /** @return the process exit status */
    public static int run(String[] args, PrintStream out) {
        for (String arg : args) {
            if (arg.equals("-h") || arg.equals("--help")) {
                out.print(HELP);
                return 0;
            }
        }
        TransformsOptions options;
        try {
            options = TransformsOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("transforms: " + e.getMessage());
            System.err.print(HELP);
            return 2;
        }
        String loadBefore = LoadAverage.now();
        CpuRate rate = new CpuRate();
        List<TransformResult> results = new ArrayList<>();
        List<String> libraries = new ArrayList<>();
        for (int size : options.sizes()) {
            byte[] data = SampleData.records(size, size);
            try (TransformWork lz4 = new Lz4Work(data); TransformWork aead = new AeadWork(data, options.cipher())) {
                for (TransformWork work : List.of(lz4, aead)) {
                    System.err.printf(Locale.ROOT, "transforms: %s %s%n", work.name(), Sizes.label(size));
                    double wire = work.wireRatio();
                    CpuRate.Pair p = rate.compare(work.raw(), work.candidate(), options.seconds(), options.rounds());
                    results.add(new TransformResult(work.name(), size, p.raw() * size / 1e6, p.candidate() * size / 1e6, wire));
                    if (libraries.size() < 2) {
                        libraries.add(work.name() + " raw: " + work.rawDescription());
                    }
                }
            }
        }
        String loadAfter = LoadAverage.now();
        if (options.csv()) {
            out.println(TransformResult.CSV_HEADER);
            results.forEach(r -> out.println(r.csvRow()));
        } else {
            table(results, options, libraries, loadBefore, loadAfter, out);
        }
        return 0;
    }

    private static void table(List<TransformResult> results, TransformsOptions options, List<String> libraries,
                              String loadBefore, String loadAfter, PrintStream out) {
        out.printf(Locale.ROOT, "transforms, %s; load average (1, 5, 15 min) before %s, after %s; %s%n",
            Processors.describe(), loadBefore, loadAfter, System.getProperty("java.vm.version"));
        out.printf(Locale.ROOT, "encode + decode per message, MB of input per CPU-second, median of %d rounds of %.2f s; "
            + "data: JSON-like log records%n", options.rounds(), options.seconds());
        libraries.forEach(l -> out.println("  " + l));
        out.println();
        out.printf(Locale.ROOT, "%-9s %-8s %12s %14s %7s %6s%n", "transform", "size", "raw MB/s", "polylink MB/s", "ratio", "wire");
        for (TransformResult r : results) {
            out.printf(Locale.ROOT, "%-9s %-8s %12.1f %14.1f %7.3f %6.2f%n", r.transform(), Sizes.label(r.size()),
                r.rawMbPerSecond(), r.polylinkMbPerSecond(), r.ratio(), r.wireRatio());
        }
        out.println();
        out.println("wire: bytes on the wire / input bytes through the transform");
        out.println("targets (at 4 KiB and more):");
        boolean any = false;
        for (TransformResult r : results) {
            if (r.size() < TARGET_FROM) {
                continue;
            }
            any = true;
            double bound = r.transform().equals("lz4") ? LZ4_TARGET : AEAD_TARGET;
            out.printf(Locale.ROOT, "  %-4s %-8s polylink >= %.2f x raw: %5.3f x  %s%n", r.transform(), Sizes.label(r.size()),
                bound, r.ratio(), r.ratio() >= bound ? "met" : "MISSED");
        }
        if (!any) {
            out.println("  (no size of 4 KiB or more in this run)");
        }
    }
}
