package io.polylink.core.internal.endpoint;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * Endpoints by id, looked up without locks or boxing on the delivery path.
 *
 * <p>An id is a slot index (low {@value #SLOT_BITS} bits) and the slot's generation (the rest), so
 * a startpoint to a closed endpoint does not reach the next endpoint that reuses its slot.
 */
final class EndpointTable {

    static final int SLOT_BITS = 20;
    private static final int SLOT_MASK = (1 << SLOT_BITS) - 1;
    private static final int MAX_GENERATION = (1 << (31 - SLOT_BITS)) - 1;
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(EndpointImpl[].class);

    private volatile EndpointImpl[] slots = new EndpointImpl[16];
    private int[] generations = new int[16];
    private int used = 1; // slot 0 stays empty: endpoint id 0 marks control frames
    private final ArrayDeque<Integer> free = new ArrayDeque<>();

    synchronized EndpointImpl add(Endpoints owner, Object attachment) {
        int slot;
        if (!free.isEmpty()) {
            slot = free.poll();
        } else {
            if (used > SLOT_MASK) {
                throw new IllegalStateException("this context has " + SLOT_MASK
                    + " endpoints open; close endpoints that are no longer used");
            }
            slot = used++;
            if (slot == slots.length) {
                slots = Arrays.copyOf(slots, slot * 2);
                generations = Arrays.copyOf(generations, slot * 2);
            }
        }
        int generation = generations[slot] = (generations[slot] + 1) & MAX_GENERATION;
        EndpointImpl endpoint = new EndpointImpl(owner, generation << SLOT_BITS | slot, attachment);
        SLOT.setRelease(slots, slot, endpoint);
        return endpoint;
    }

    synchronized void remove(EndpointImpl endpoint) {
        int slot = endpoint.id() & SLOT_MASK;
        if (slots[slot] == endpoint) {
            SLOT.setRelease(slots, slot, (EndpointImpl) null);
            free.add(slot);
        }
    }

    /** @return the open endpoint with this id, or {@code null} */
    EndpointImpl get(int id) {
        int slot = id & SLOT_MASK;
        EndpointImpl[] table = slots;
        if (id <= 0 || slot >= table.length) {
            return null;
        }
        EndpointImpl endpoint = (EndpointImpl) SLOT.getAcquire(table, slot);
        return endpoint != null && endpoint.id() == id ? endpoint : null;
    }

    synchronized int size() {
        int n = 0;
        for (EndpointImpl e : slots) {
            n += e == null ? 0 : 1;
        }
        return n;
    }
}
