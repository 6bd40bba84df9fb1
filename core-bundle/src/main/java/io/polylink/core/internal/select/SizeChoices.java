package io.polylink.core.internal.select;

import io.polylink.Descriptor;

/**
 * The entry a link's RSRs take by their size, as its policy chose for each class of sizes.
 *
 * @param starts ascending sizes, each the smallest of a class after the first, which starts at 0
 * @param entries the entry of each class, one more than {@code starts}
 */
public record SizeChoices(int[] starts, Descriptor[] entries) {

    /** @return the entry for an RSR of {@code size} payload bytes */
    public Descriptor entryFor(int size) {
        int i = 0;
        while (i < starts.length && size >= starts[i]) {
            i++;
        }
        return entries[i];
    }

    /** @return these choices with {@code gone}'s classes given to {@code instead} */
    public SizeChoices replacing(Descriptor gone, Descriptor instead) {
        Descriptor[] replaced = entries.clone();
        for (int i = 0; i < replaced.length; i++) {
            if (replaced[i].equals(gone)) {
                replaced[i] = instead;
            }
        }
        return new SizeChoices(starts, replaced);
    }

    /** @return the classes and their stacks, e.g. {@code tcp below 4096 B, lz4/tcp from 4096 B} */
    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < entries.length; i++) {
            if (i > 0) {
                out.append(", ");
            }
            out.append(entries[i].stack());
            if (i == 0) {
                out.append(" below ").append(starts[0]).append(" B");
            } else {
                out.append(" from ").append(starts[i - 1]).append(" B");
            }
        }
        return out.toString();
    }
}
