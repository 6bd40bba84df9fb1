package io.polylink;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Predicate;

/**
 * A context's ordered list of descriptors, fastest first. Immutable: the editing methods return
 * new tables.
 */
public final class DescriptorTable implements Iterable<Descriptor> {

    /** Most entries in one table. */
    public static final int MAX_ENTRIES = 64;

    private static final DescriptorTable EMPTY = new DescriptorTable(List.of());

    private final List<Descriptor> entries;

    private DescriptorTable(List<Descriptor> entries) {
        if (entries.size() > MAX_ENTRIES) {
            throw new IllegalArgumentException(
                "descriptor table of " + entries.size() + " entries exceeds " + MAX_ENTRIES);
        }
        this.entries = List.copyOf(entries);
    }

    /** @return a table with no entries */
    public static DescriptorTable empty() {
        return EMPTY;
    }

    /**
     * @param entries the entries in order
     * @return a table of them
     * @throws IllegalArgumentException if there are more than {@link #MAX_ENTRIES}
     */
    public static DescriptorTable of(List<Descriptor> entries) {
        return new DescriptorTable(entries);
    }

    /** @return the entries in order */
    public List<Descriptor> entries() {
        return entries;
    }

    /** @return the number of entries */
    public int size() {
        return entries.size();
    }

    /**
     * @param index 0-based
     * @return that entry
     */
    public Descriptor get(int index) {
        return entries.get(index);
    }

    /**
     * @param descriptor an entry to add at the end
     * @return the new table
     */
    public DescriptorTable append(Descriptor descriptor) {
        return insert(entries.size(), descriptor);
    }

    /**
     * @param index where the entry goes, 0 for the front
     * @param descriptor the entry
     * @return the new table
     */
    public DescriptorTable insert(int index, Descriptor descriptor) {
        List<Descriptor> copy = new ArrayList<>(entries);
        copy.add(index, descriptor);
        return new DescriptorTable(copy);
    }

    /**
     * @param stack a stack such as {@code tcp}
     * @return the table without entries of that stack
     */
    public DescriptorTable remove(String stack) {
        return filter(d -> !d.stack().equals(stack));
    }

    /**
     * @param keep which entries stay
     * @return the table of the entries kept, in order
     */
    public DescriptorTable filter(Predicate<Descriptor> keep) {
        return new DescriptorTable(entries.stream().filter(keep).toList());
    }

    /**
     * Reorders the table: entries of the given stacks first, in the order given, then the rest in
     * their old order. Stacks the table does not have are ignored.
     *
     * @param stacks stacks such as {@code shm}, {@code tcp}
     * @return the new table
     */
    public DescriptorTable prefer(String... stacks) {
        List<Descriptor> front = new ArrayList<>();
        for (String stack : stacks) {
            entries.stream().filter(d -> d.stack().equals(stack)).forEach(front::add);
        }
        List<Descriptor> out = new ArrayList<>(front);
        entries.stream().filter(d -> !front.contains(d)).forEach(out::add);
        return new DescriptorTable(out);
    }

    @Override
    public Iterator<Descriptor> iterator() {
        return entries.iterator();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DescriptorTable t && entries.equals(t.entries);
    }

    @Override
    public int hashCode() {
        return entries.hashCode();
    }

    @Override
    public String toString() {
        return entries.toString();
    }
}
