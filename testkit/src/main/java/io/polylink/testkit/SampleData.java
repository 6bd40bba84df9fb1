package io.polylink.testkit;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Test payloads. "Records" are what a service might send: JSON-like log records whose field names
 * and levels repeat while ids, times and sizes vary, so lz4 shrinks them to roughly a third to a
 * half; "random" bytes do not compress at all.
 */
public final class SampleData {

    private static final String[] LEVELS = {"INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"};
    private static final String[] PATHS = {"/api/v1/orders", "/api/v1/users", "/health", "/api/v2/search",
        "/static/app.js", "/api/v1/orders/items"};

    private SampleData() {}

    public static byte[] records(int length, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        StringBuilder out = new StringBuilder(length + 256);
        long time = 1_700_000_000_000L + random.nextInt(1_000_000);
        while (out.length() < length) {
            time += random.nextInt(50);
            out.append("{\"ts\":").append(time)
                .append(",\"level\":\"").append(LEVELS[random.nextInt(LEVELS.length)])
                .append("\",\"host\":\"node-").append(random.nextInt(32))
                .append("\",\"trace\":\"").append(Long.toHexString(random.nextLong()))
                .append("\",\"path\":\"").append(PATHS[random.nextInt(PATHS.length)])
                .append("\",\"status\":").append(random.nextInt(10) == 0 ? 500 : 200)
                .append(",\"bytes\":").append(random.nextInt(100_000))
                .append(",\"ms\":").append(random.nextInt(2_000)).append("}\n");
        }
        byte[] bytes = out.toString().getBytes(StandardCharsets.US_ASCII);
        return Arrays.copyOf(bytes, length);
    }

    public static byte[] random(int length, long seed) {
        byte[] bytes = new byte[length];
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < length; i += 8) {
            long v = random.nextLong();
            for (int j = 0; j < 8 && i + j < length; j++) {
                bytes[i + j] = (byte) (v >>> (8 * j));
            }
        }
        return bytes;
    }
}
