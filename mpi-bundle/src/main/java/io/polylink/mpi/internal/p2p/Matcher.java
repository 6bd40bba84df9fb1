package io.polylink.mpi.internal.p2p;

import io.polylink.MessageBuffer;
import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import io.polylink.mpi.internal.wire.Envelope;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * The posted receives, in posting order, and the unexpected messages, in arrival order, of one
 * rank, across all its communicators. An arrival takes the first posted receive it matches; a
 * receive takes the first unexpected message it matches. Both happen under one lock, so a message
 * is never both queued and matched, and arrivals from one sender (which come in order on one link)
 * match in the order they were sent. The lock is a {@link ShortLock}: nothing done under it waits
 * for anything.
 *
 * <p>The unexpected queue is bounded in messages and bytes. A message that would pass the bound
 * is not kept: the matcher fails (see {@link #failure()}), since the program's messages can no
 * longer all be delivered.
 */
final class Matcher {

    private final ShortLock lock = new ShortLock();
    private final Limits limits;
    private final int worldRank;
    private ReceiveOperation postedHead;
    private ReceiveOperation postedTail;
    private Unexpected unexpectedHead;
    private Unexpected unexpectedTail;
    private long unexpectedBytes;
    private int unexpectedCount;
    private final List<Thread> probers = new ArrayList<>();
    /** Written under the lock, once; volatile for {@link #failure()}. */
    private volatile MpiError failure;

    Matcher(Limits limits, int worldRank) {
        this.limits = limits;
        this.worldRank = worldRank;
    }

    /**
     * Posts a receive, unless an unexpected message matches it.
     *
     * @return the matching unexpected message, removed from the queue, or {@code null} if the
     *     receive was queued
     * @throws MpiError the matcher's failure, if it failed
     */
    Unexpected post(ReceiveOperation r) {
        lock.lock();
        try {
            if (failure != null) {
                throw failure;
            }
            Unexpected u = find(r.context, r.source, r.tag);
            if (u != null) {
                unlink(u);
                return u;
            }
            r.previous = postedTail;
            r.next = null;
            if (postedTail == null) {
                postedHead = r;
            } else {
                postedTail.next = r;
            }
            postedTail = r;
            r.posted = true;
            return null;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Matches an arriving EAGER or RTS, or queues it: an EAGER with a copy of its data, which
     * {@code data} holds from its read index.
     *
     * @return the receive it matched, removed from the queue; {@code null} if it was queued or, once
     *     the queue is full, dropped (then {@link #failure()} says so)
     */
    ReceiveOperation arrive(Envelope e, MessageBuffer data) {
        List<Thread> wake;
        lock.lock();
        try {
            ReceiveOperation r = postedHead;
            while (r != null && !r.matches(e)) {
                r = r.next;
            }
            if (r != null) {
                unlinkPosted(r);
                return r;
            }
            if (failure != null) {
                return null;
            }
            int length = data == null ? 0 : data.remaining();
            if (unexpectedCount >= limits.unexpectedMessages() || unexpectedBytes + length > limits.unexpectedBytes()) {
                failure = new MpiError(ErrorClass.ERR_NO_MEM, "rank " + worldRank + " holds " + unexpectedCount
                    + " messages (" + unexpectedBytes + " bytes) that arrived before their receives, its limit ("
                    + limits.unexpectedMessages() + " messages, " + limits.unexpectedBytes() + " bytes); a message "
                    + "from rank " + e.source() + " with tag " + e.tag() + " was lost, so the job cannot go on. "
                    + "Post receives before the messages arrive, or raise POLYLINK_MPI_UNEXPECTED_BYTES and "
                    + "POLYLINK_MPI_UNEXPECTED_MESSAGES");
                return null;
            }
            byte[] copy = null;
            if (data != null) {
                copy = new byte[length];
                data.getRaw(copy, 0, length);
            }
            Unexpected u = new Unexpected(e, copy);
            u.previous = unexpectedTail;
            if (unexpectedTail == null) {
                unexpectedHead = u;
            } else {
                unexpectedTail.next = u;
            }
            unexpectedTail = u;
            unexpectedCount++;
            unexpectedBytes += length;
            if (probers.isEmpty()) {
                return null;
            }
            wake = List.copyOf(probers);
        } finally {
            lock.unlock();
        }
        wake.forEach(LockSupport::unpark);
        return null;
    }

    /** @return the first unexpected message matching, left in the queue, or {@code null} */
    Unexpected peek(int context, int source, int tag) {
        lock.lock();
        try {
            if (failure != null) {
                throw failure;
            }
            return find(context, source, tag);
        } finally {
            lock.unlock();
        }
    }

    /** @return the first unexpected message matching, removed from the queue, or {@code null} */
    Unexpected take(int context, int source, int tag) {
        lock.lock();
        try {
            if (failure != null) {
                throw failure;
            }
            Unexpected u = find(context, source, tag);
            if (u != null) {
                unlink(u);
            }
            return u;
        } finally {
            lock.unlock();
        }
    }

    /** Lets {@link #arrive} wake {@code thread} when a message is queued. */
    void watch(Thread thread, boolean on) {
        lock.lock();
        try {
            if (on) {
                probers.add(thread);
            } else {
                probers.remove(thread);
            }
        } finally {
            lock.unlock();
        }
    }

    /** @return whether {@code r} was still waiting for a match, and is now removed */
    boolean withdraw(ReceiveOperation r) {
        lock.lock();
        try {
            if (!r.posted) {
                return false;
            }
            unlinkPosted(r);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Withdraws the posted receives that wait on a lost rank ({@link ReceiveOperation#awaits}) and
     * wakes blocked probes, to look at the lost ranks.
     *
     * @return the receives withdrawn, for the caller to fail
     */
    List<ReceiveOperation> lose(int worldRank) {
        lock.lock();
        try {
            List<ReceiveOperation> failed = new ArrayList<>();
            for (ReceiveOperation r = postedHead; r != null; ) {
                ReceiveOperation next = r.next;
                if (r.awaits(worldRank)) {
                    unlinkPosted(r);
                    failed.add(r);
                }
                r = next;
            }
            probers.forEach(LockSupport::unpark);
            return failed;
        } finally {
            lock.unlock();
        }
    }

    /** @return whether a receive is posted or a thread blocks in a probe: something waits for a message */
    boolean waiting() {
        lock.lock();
        try {
            return postedHead != null || !probers.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /**
     * @return the failure that stopped the matcher, or {@code null}; read without the lock, as
     *     every send asks first
     */
    MpiError failure() {
        return failure;
    }

    /**
     * Fails the matcher: later posts throw {@code error}, arrivals are dropped.
     *
     * @return the receives that were posted, removed, for the caller to complete
     */
    List<ReceiveOperation> fail(MpiError error) {
        lock.lock();
        try {
            if (failure == null) {
                failure = error;
            }
            List<ReceiveOperation> posted = new ArrayList<>();
            for (ReceiveOperation r = postedHead; r != null; r = r.next) {
                r.posted = false;
                posted.add(r);
            }
            postedHead = postedTail = null;
            probers.forEach(LockSupport::unpark);
            return posted;
        } finally {
            lock.unlock();
        }
    }

    private Unexpected find(int context, int source, int tag) {
        Unexpected u = unexpectedHead;
        while (u != null && !u.matches(context, source, tag)) {
            u = u.next;
        }
        return u;
    }

    private void unlink(Unexpected u) {
        if (u.previous == null) {
            unexpectedHead = u.next;
        } else {
            u.previous.next = u.next;
        }
        if (u.next == null) {
            unexpectedTail = u.previous;
        } else {
            u.next.previous = u.previous;
        }
        u.next = u.previous = null;
        unexpectedCount--;
        unexpectedBytes -= u.data == null ? 0 : u.data.length;
    }

    private void unlinkPosted(ReceiveOperation r) {
        if (r.previous == null) {
            postedHead = r.next;
        } else {
            r.previous.next = r.next;
        }
        if (r.next == null) {
            postedTail = r.previous;
        } else {
            r.next.previous = r.previous;
        }
        r.next = r.previous = null;
        r.posted = false;
    }
}
