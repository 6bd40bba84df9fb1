package io.polylink.bench.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Message sizes as the commands read and print them: {@code 16,1k,64k,1m}, {@code 16 B}, {@code 64 KiB}. */
public final class Sizes {

    private Sizes() {}

    /**
     * @param list comma-separated sizes in bytes, with an optional {@code k} (KiB) or {@code m} (MiB) suffix
     * @param option the option's name, for messages
     * @param max the largest size allowed
     * @return the sizes in order
     * @throws IllegalArgumentException naming the item that is wrong
     */
    public static List<Integer> parse(String list, String option, int max) {
        List<Integer> out = new ArrayList<>();
        for (String item : list.split(",")) {
            if (item.isBlank()) {
                continue;
            }
            String lower = item.strip().toLowerCase(Locale.ROOT);
            int shift = lower.endsWith("k") ? 10 : lower.endsWith("m") ? 20 : 0;
            String digits = shift == 0 ? lower : lower.substring(0, lower.length() - 1);
            long size;
            try {
                size = Long.parseLong(digits) << shift;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + " item '" + item.strip() + "' is not a size like 16, 1k or 1m");
            }
            if (size < 1 || size > max) {
                throw new IllegalArgumentException(option + " item " + item.strip() + " is outside 1.." + max + " bytes");
            }
            out.add((int) size);
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(option + " needs at least one item");
        }
        return out;
    }

    /** @return {@code 16 B}, {@code 64 KiB}, {@code 1 MiB}; exact, else bytes */
    public static String label(int bytes) {
        if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) {
            return (bytes >> 20) + " MiB";
        }
        if (bytes >= 1 << 10 && bytes % (1 << 10) == 0) {
            return (bytes >> 10) + " KiB";
        }
        return bytes + " B";
    }
}
