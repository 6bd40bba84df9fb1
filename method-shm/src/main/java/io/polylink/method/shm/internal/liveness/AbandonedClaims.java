package io.polylink.method.shm.internal.liveness;

import static io.polylink.method.shm.internal.segment.InboxLayout.SLOT_FREE;
import static io.polylink.method.shm.internal.segment.InboxLayout.slotPid;

import java.util.function.IntToLongFunction;

/**
 * When a record left claimed in an inbox may be skipped: a record stays unfinished only while its
 * producer's thread is between claim and commit, and a producer whose process runs will finish it,
 * however long a loaded host keeps it waiting; so only one whose process is gone or stopped has
 * abandoned it. Asked by the poller, on its tick, of a record that has held up the ring for the
 * unblock timeout.
 */
public final class AbandonedClaims {

    private AbandonedClaims() {}

    /**
     * @param slotState the state word of the producer slot named in the record's header
     * @return whether that producer can no longer finish the record
     */
    public static boolean byProducer(long slotState) {
        if (slotState == SLOT_FREE) {
            return true;
        }
        long pid = slotPid(slotState);
        return !Liveness.alive(pid, 0) || Liveness.stopped(pid);
    }

    /**
     * A claim whose producer has not written its header may be any producer's. It is skipped once
     * a producer's process is gone, or none is left, and none is stopped. A stopped producer may be
     * the owner: continued, it would mark and fill space the receiver had already skipped and
     * zeroed, where its compare-and-sets find the zeroes they expect, and leave a record behind
     * the receiver that a later lap could read. So while one is stopped, the claim waits.
     *
     * @param slots how many producer slots the inbox has
     * @param slotState the state word of each producer slot
     * @return whether the claim may be skipped
     */
    public static boolean headerless(int slots, IntToLongFunction slotState) {
        boolean anyActive = false;
        boolean anyGone = false;
        for (int s = 0; s < slots; s++) {
            long state = slotState.applyAsLong(s);
            if (state == SLOT_FREE) {
                continue;
            }
            anyActive = true;
            long pid = slotPid(state);
            if (!Liveness.alive(pid, 0)) {
                anyGone = true;
            } else if (Liveness.stopped(pid)) {
                return false;
            }
        }
        return !anyActive || anyGone;
    }
}
