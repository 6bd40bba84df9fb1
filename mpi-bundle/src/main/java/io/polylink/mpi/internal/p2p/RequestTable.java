package io.polylink.mpi.internal.p2p;

import io.polylink.mpi.internal.request.Operation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

/**
 * Operations a peer's answer refers to by id: sends waiting for CTS or SYNC_ACK, receives
 * waiting for DATA. An id is a slot and the slot's generation, so an id from an old or forged
 * message finds nothing rather than a later operation in the same slot. Thread-safe.
 */
final class RequestTable {

    private Operation[] slots = new Operation[64];
    private int[] generations = new int[64];
    private int[] free = new int[64];
    private int freeCount;
    private int used;

    /** @return the id of {@code op} until it is removed */
    synchronized long add(Operation op) {
        int slot;
        if (freeCount > 0) {
            slot = free[--freeCount];
        } else {
            if (used == slots.length) {
                slots = Arrays.copyOf(slots, used * 2);
                generations = Arrays.copyOf(generations, used * 2);
                free = Arrays.copyOf(free, used * 2);
            }
            slot = used++;
        }
        slots[slot] = op;
        return (long) generations[slot] << 32 | slot;
    }

    /** @return the operation with this id, or {@code null} if there is none */
    synchronized Operation get(long id) {
        int slot = (int) id;
        if (slot < 0 || slot >= used || generations[slot] != (int) (id >>> 32)) {
            return null;
        }
        return slots[slot];
    }

    /** @return the operation with this id, now removed, or {@code null} if there is none */
    synchronized Operation remove(long id) {
        Operation op = get(id);
        if (op != null) {
            int slot = (int) id;
            slots[slot] = null;
            generations[slot]++;
            free[freeCount++] = slot;
        }
        return op;
    }

    /** @return whether no operation is in the table */
    synchronized boolean isEmpty() {
        return freeCount == used;
    }

    /** @return the operations {@code which} selects, now removed */
    synchronized List<Operation> drain(Predicate<Operation> which) {
        List<Operation> out = new ArrayList<>();
        for (int slot = 0; slot < used; slot++) {
            if (slots[slot] != null && which.test(slots[slot])) {
                out.add(slots[slot]);
                slots[slot] = null;
                generations[slot]++;
                free[freeCount++] = slot;
            }
        }
        return out;
    }

    /** @return every operation, all removed */
    synchronized List<Operation> drain() {
        return drain(op -> true);
    }
}
