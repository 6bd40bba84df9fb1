package io.polylink.mpi.internal;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Values kept for objects by their identity while the objects live. Buffers compare by content,
 * so no map of the JDK's would tell two equal buffers apart, and none would let them be collected.
 */
public final class WeakIdentityTable<V> {

    private final Map<Key, V> entries = new HashMap<>();
    private final ReferenceQueue<Object> cleared = new ReferenceQueue<>();

    public synchronized void put(Object key, V value) {
        entries.put(new Key(key, cleared), value);
    }

    /** @return the value kept for {@code key} itself, or {@code null} */
    public synchronized V get(Object key) {
        return entries.get(new Key(key, null));
    }

    /** @return the value kept for {@code key} itself, which is no longer kept; or {@code null} */
    public synchronized V remove(Object key) {
        return entries.remove(new Key(key, null));
    }

    /** Drops the entries whose objects were collected, handing each value to {@code gone}. */
    public synchronized void expunge(Consumer<V> gone) {
        for (Reference<?> r; (r = cleared.poll()) != null; ) {
            V value = entries.remove(r);
            if (value != null) {
                gone.accept(value);
            }
        }
    }

    /** @return every value still kept */
    public synchronized List<V> values() {
        return new ArrayList<>(entries.values());
    }

    public synchronized int size() {
        return entries.size();
    }

    private static final class Key extends WeakReference<Object> {

        private final int hash;

        Key(Object referent, ReferenceQueue<Object> queue) {
            super(referent, queue);
            this.hash = System.identityHashCode(referent);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            // A cleared key equals only itself, so expunging finds it and nothing else does.
            Object mine = get();
            return mine != null && o instanceof Key k && mine == k.get();
        }
    }
}
