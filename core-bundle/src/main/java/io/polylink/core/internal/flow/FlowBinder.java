package io.polylink.core.internal.flow;

import io.polylink.Descriptor;
import io.polylink.Explanation;
import io.polylink.LinkException;
import io.polylink.PolylinkException;
import io.polylink.core.internal.channel.ChannelSender;
import io.polylink.core.internal.channel.PeerChannel;
import io.polylink.core.internal.local.LocalMethod;
import io.polylink.core.internal.registry.Installed;
import io.polylink.core.internal.select.SizeChoices;
import io.polylink.core.internal.select.StackSelector;
import java.util.Arrays;
import java.util.BitSet;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Where one flow's RSRs go, and how that changes: the flow is bound to an entry of its table on
 * first use and again whenever the context's methods change, its connection breaks or the peer
 * refuses its stack; a flow on a later entry probes now and then for a better one, connecting to
 * it in the background, as it sends and, after connecting to it failed, from the retry timer too;
 * a flow that finds no way to its peer keeps trying, then gives up. Each move sends the RSRs the
 * peer has not acknowledged again, in order, before anything new.
 *
 * <p>Runs under the flow's lock, on the thread that sends or moves the flow; background connects
 * report back on the retry thread ({@link #reconnected}).
 */
final class FlowBinder {

    /** How often a flow that fell back looks whether an earlier entry became usable. */
    private static final long PROBE_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** The longest wait between background connects to an entry that failed to connect. */
    private static final long MAX_RECONNECT_NANOS = TimeUnit.SECONDS.toNanos(30);
    /** How long a stack the peer refused stays refused before this flow tries it again. */
    private static final long REFUSAL_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final int MOVE_ATTEMPTS = 3;

    private final OutboundFlow flow;
    private final Flows owner;
    private final Installed installed;
    private final StackSelector selector;
    private final RetransmitStore store;

    private volatile BoundStack binding;
    /** The entry the flow is on now: the link's choice, or a size class's. */
    private Descriptor boundEntry;
    /** The link's choice, for every size its policy chose nothing else for. */
    private Descriptor linkEntry;
    /** Where RSRs go by their size, or {@code null} where the policy chose one entry for all. */
    private volatile SizeChoices bySize;
    private int generation;
    private volatile Explanation explanation;
    private int chosenIndex;
    /**
     * Whether an entry before the chosen one might become usable. Tables start with {@code local},
     * which a flow to another context can never use: without this every send of every flow would
     * read the clock to see whether a probe is due.
     */
    private boolean betterPossible;
    private BitSet connectFailed = new BitSet();
    private long probeAt;
    /** When to connect again, in the background, to a better entry that failed to connect. */
    private long reconnectAt;
    private long reconnectBackoff = PROBE_NANOS;
    /** The stack the peer last refused, why, and until when. */
    private String refusedStack;
    private String refusedWhy;
    private long refusedUntil;
    /** A background connect is under way: one at a time. */
    private volatile boolean reconnecting;
    /** The entry a background connect reached since the flow was bound, or -1. */
    private volatile int reconnected = -1;
    /** A look for the better entry from the retry timer is due or running: one at a time. */
    private boolean idleProbing;
    private int lastEndpoint;
    /** Why the flow's last connection failed, until it is bound again: said if moving fails. */
    private volatile String brokenBy;
    /** The thread moving the flow on the context's behalf, not for a send: it keeps brokenBy. */
    private Thread mover;
    /** When moving in the background first failed, since the flow last had a way to its peer. */
    private long strandedSince;
    private boolean stranded;
    /** A retry is scheduled: one at a time, however many failures asked for it. */
    private boolean retrying;

    FlowBinder(OutboundFlow flow, Flows owner, RetransmitStore store) {
        this.flow = flow;
        this.owner = owner;
        this.installed = owner.installed;
        this.selector = owner.selector;
        this.store = store;
    }

    /** @return where the flow's RSRs go now, or {@code null} while it is not bound */
    BoundStack binding() {
        return binding;
    }

    /** @return the context's generation the binding was made in */
    int generation() {
        return generation;
    }

    /** @return whether the flow must be bound before its next send */
    boolean stale() {
        BoundStack b = binding;
        return b == null || generation != installed.generation() || b.channel() != null && !b.channel().isOpen();
    }

    /** @return why the flow is where it is, for one of its targets; {@code null} before it is bound */
    Explanation explanation(int endpoint) {
        Explanation e = explanation;
        return e == null || e.endpoint() == endpoint ? e
            : new Explanation(e.target(), endpoint, e.policy(), e.entries());
    }

    /**
     * A flow on a later entry than the first looks again, now and then, for a better one. A better
     * entry refused only because connecting failed is connected to again in the background, with
     * backoff, and taken once that works: trying it on the sender's thread would stall sends for
     * a connect timeout each time.
     */
    boolean probeDue() {
        if (!betterPossible || System.nanoTime() - probeAt < 0) {
            return false;
        }
        probeAt = System.nanoTime() + PROBE_NANOS;
        OutboundFlow.Key key = flow.key();
        int better = selector.explain(key.peer(), lastEndpoint, flow.table(), key.options())
            .chosen().map(Explanation.Entry::index).orElse(-1);
        if (better < 0 || better >= chosenIndex) {
            return false;
        }
        if (!connectFailed.get(better) || reconnected == better) {
            return true;
        }
        long now = System.nanoTime();
        if (!reconnecting && now - reconnectAt >= 0) {
            reconnecting = true;
            reconnectAt = now + reconnectBackoff;
            reconnectBackoff = Math.min(2 * reconnectBackoff, MAX_RECONNECT_NANOS);
            reconnectLater(flow.table().table().get(better), better);
        }
        return false;
    }

    private boolean betterPossible(int chosen) {
        for (int i = 0; i < chosen; i++) {
            if (!flow.table().table().get(i).method().equals(LocalMethod.NAME)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Connects, on the retry thread, to an entry the flow fell back from because connecting to it
     * failed; the connection stays pooled for the flow's next send to take.
     */
    private void reconnectLater(Descriptor entry, int index) {
        try {
            owner.timer.execute(() -> {
                boolean works = false;
                try {
                    OutboundFlow.Key key = flow.key();
                    works = owner.channels.outbound(key.peer(), entry, key.options().parameters(entry.method()))
                        .isOpen();
                } catch (RuntimeException stillFailing) {
                    // the flow stays where it is and tries again later
                } finally {
                    reconnected(index, works);
                }
            });
        } catch (RejectedExecutionException closing) {
            reconnected(index, false);
        }
    }

    /** On the retry thread: the outcome of a background connect. */
    private void reconnected(int index, boolean works) {
        if (works) {
            reconnected = index;
        }
        reconnecting = false;
    }

    /**
     * Has the retry timer look for the entry the flow failed to connect to, as its sends do, until
     * the flow is back on it: a link whose traffic stopped comes back too. The looks follow the
     * background connects' backoff, so an entry that stays unreachable is looked for once every
     * 30 s in the end. Caller holds the flow's lock.
     */
    void probeIdleLater() {
        if (!idleProbing && fellBack() && !flow.retired() && !owner.closing()) {
            idleProbing = true;
            probeIdleAgainLater();
        }
    }

    /** A look from the retry timer found the flow held by a sender: it looks again later. Any thread. */
    void probeIdleAgainLater() {
        long waitNanos = Math.max(PROBE_NANOS, reconnectAt - System.nanoTime());
        owner.timer.later(flow::probeIdle, TimeUnit.NANOSECONDS.toMillis(waitNanos));
    }

    /**
     * A look from the retry timer, as {@link #probeDue} on a send. Caller holds the flow's lock.
     *
     * @return whether the better entry can be taken now
     */
    boolean idleProbeDue() {
        idleProbing = false;
        return fellBack() && probeDue();
    }

    /** @return whether the flow is on a later entry than one it failed to connect to */
    private boolean fellBack() {
        BoundStack b = binding;
        return b != null && b != BoundStack.LOCAL && betterPossible && !connectFailed.isEmpty();
    }

    /** Binds the flow again for the target it was last bound for. Caller holds the flow's lock. */
    void rebind() {
        bind(lastEndpoint);
    }

    /**
     * Selects, binds and sends again everything unacknowledged; a few attempts if the new
     * connection fails at once. Caller holds the flow's lock.
     *
     * @throws PolylinkException if no entry can be used
     */
    void bind(int endpoint) {
        lastEndpoint = endpoint;
        noteWhyBroken();
        RuntimeException last = null;
        OutboundFlow.Key key = flow.key();
        for (int attempt = 0; attempt < MOVE_ATTEMPTS; attempt++) {
            int now = installed.generation();
            binding = null;
            StackSelector.Selection<BoundStack> s;
            try {
                s = selector.select(key.peer(), endpoint, flow.table(), key.options(), this::bindUnlessRefused);
            } catch (PolylinkException e) {
                String broken = brokenBy;
                if (broken == null || Thread.currentThread() == mover) {
                    throw e;
                }
                brokenBy = null; // said once, to the application, like any failure
                throw new LinkException(broken + "; and no other way to the peer works: " + e.getMessage(), e);
            }
            brokenBy = null;
            binding = s.value();
            linkEntry = boundEntry = s.explanation().chosen().orElseThrow().descriptor();
            bySize = binding == BoundStack.LOCAL ? null : sizeChoices(endpoint, s.connectFailed());
            generation = now;
            explanation = s.explanation();
            chosenIndex = s.chosenIndex();
            betterPossible = betterPossible(chosenIndex);
            connectFailed = s.connectFailed();
            probeAt = System.nanoTime() + PROBE_NANOS;
            reconnected = -1;
            if (!connectFailed.isEmpty()) {
                reconnectAt = probeAt;
            } else {
                reconnectBackoff = PROBE_NANOS;
            }
            if (binding == BoundStack.LOCAL) {
                if (!store.isEmpty()) {
                    throw new IllegalStateException(flow + " chose plain local with RSRs unacknowledged");
                }
                stranded = false;
                return;
            }
            try {
                Pending lastKept = store.last();
                for (Pending p : store) {
                    flow.transmit(p, p == lastKept);
                }
                if (binding.channel().deliversOnSend()) {
                    store.clear();
                }
                stranded = false;
                probeIdleLater();
                return;
            } catch (RuntimeException e) {
                last = e;
            }
        }
        binding = null;
        throw new LinkException(flow + " found no working connection in " + MOVE_ATTEMPTS + " attempts: "
            + last.getMessage(), last);
    }

    /**
     * Asks the policy where RSRs go by size. A policy failing at it leaves the link on its one
     * choice: the link works, and the problem is logged.
     *
     * @return the choices, or {@code null} if every size goes by the link's choice
     */
    private SizeChoices sizeChoices(int endpoint, BitSet connectFailed) {
        OutboundFlow.Key key = flow.key();
        try {
            return selector.sizeChoices(key.peer(), endpoint, flow.table(), key.options(), connectFailed, linkEntry);
        } catch (PolylinkException e) {
            owner.sizeChoicesFailed(flow, e);
            return null;
        }
    }

    /**
     * @return the entry an RSR of {@code size} payload bytes goes by, if the flow is on another
     *     one; {@code null} if it goes where the flow is
     */
    Descriptor elsewhere(int size) {
        SizeChoices choices = bySize;
        if (choices == null) {
            return null;
        }
        Descriptor wanted = choices.entryFor(size);
        return wanted.equals(boundEntry) ? null : wanted;
    }

    /**
     * Moves the flow, which has nothing unacknowledged, to a size class's entry: nothing is sent
     * again, and the peer expects the next RSR wherever it arrives. An entry that cannot be
     * connected gives its classes to the link's choice until the flow binds again. Caller holds
     * the flow's lock.
     *
     * @return where the flow's RSRs go now
     */
    BoundStack moveTo(Descriptor entry) {
        try {
            binding = bindUnlessRefused(entry);
            boundEntry = entry;
        } catch (LinkException e) {
            bySize = bySize.replacing(entry, linkEntry);
            owner.sizeChoiceFailed(flow, entry, e);
        }
        return binding;
    }

    /**
     * Keeps why the current connection failed, if it did, before the binding goes: a sender can
     * find it closed before the method has told the core (and {@link OutboundFlow#closed} would then find
     * the binding already gone), and its error must still say what happened to it.
     */
    private void noteWhyBroken() {
        BoundStack old = binding;
        if (brokenBy == null && old != null && old.channel() != null && !old.channel().isOpen()) {
            Throwable cause = old.channel().failure();
            if (cause != null) {
                brokenBy = old.channel() + " failed: " + cause.getMessage();
            }
        }
    }

    /**
     * Binds the chosen entry, unless the peer refused its stack lately: selection then takes the
     * next entry, as for one that failed to connect.
     */
    private BoundStack bindUnlessRefused(Descriptor chosen) {
        if (chosen.stack().equals(refusedStack) && System.nanoTime() - refusedUntil < 0) {
            throw new LinkException(refusedWhy);
        }
        if (chosen.method().equals(LocalMethod.NAME) && chosen.transforms().isEmpty()) {
            return BoundStack.LOCAL;
        }
        PeerChannel channel = channelFor(chosen);
        try {
            return bindTo(channel, chosen);
        } catch (LinkException e) {
            if (channel.isOpen()) {
                throw e;
            }
            // The pooled connection closed as the flow bound to it (its method closed it, or this
            // context reopens its connections to check their stacks): a new connection is tried
            // once, as a closed one is not the entry's refusal.
            try {
                return bindTo(channelFor(chosen), chosen);
            } catch (LinkException again) {
                again.addSuppressed(e);
                throw again;
            }
        }
    }

    private PeerChannel channelFor(Descriptor chosen) {
        OutboundFlow.Key key = flow.key();
        return owner.channels.outbound(key.peer(), chosen, key.options().parameters(chosen.method()));
    }

    private BoundStack bindTo(PeerChannel channel, Descriptor chosen) {
        // The flow's table is the peer's: it says where the peer runs, before any session opens.
        channel.peerSays(flow.table().origin());
        ChannelSender sender = channel.sender();
        return new BoundStack(channel, sender, sender.bind(flow.id(), flow.firstUnacknowledged(), chosen.transforms()));
    }

    /**
     * A method or transform departed: the binding goes if it uses it, so nothing of it stays
     * reachable. Caller holds the flow's lock.
     */
    void departed(String methodOrTransform) {
        BoundStack b = binding;
        if (b != null && b.channel() != null && (b.channel().connection().method().equals(methodOrTransform)
            || Arrays.asList(b.stack().transforms().split("\\+")).contains(methodOrTransform))) {
            binding = null;
        }
    }

    /**
     * The peer refused the stack this flow is bound to on {@code channel}: the flow lets go of it
     * and stays off it for a while. Caller holds the flow's lock.
     *
     * @return whether the flow was on it
     */
    boolean refused(PeerChannel channel, int stackId, String why) {
        BoundStack b = binding;
        if (b == null || b.channel() != channel || b.stack().id() != stackId) {
            return false;
        }
        refusedStack = explanation.chosen().map(e -> e.descriptor().stack()).orElse(null);
        refusedWhy = channel + " refused " + refusedStack + ": " + why;
        refusedUntil = System.nanoTime() + REFUSAL_NANOS;
        brokenBy = refusedWhy;
        binding = null;
        return true;
    }

    /** Keeps why {@code channel}, which the flow is on or was being bound to, closed. */
    void noteClosed(PeerChannel channel) {
        Throwable cause = channel.failure();
        brokenBy = cause == null ? null : channel + " failed: " + cause.getMessage();
    }

    /** The flow retires with nothing unacknowledged. Caller holds the flow's lock. */
    void unbind() {
        binding = null;
    }

    /** The calling thread moves the flow for the context, not for a send, or stops doing so. */
    void moving(boolean now) {
        mover = now ? Thread.currentThread() : null;
    }

    /** A scheduled retry runs. Caller holds the flow's lock. */
    void retrying() {
        retrying = false;
    }

    /**
     * Moving found no way to the peer: try again each second, and after the context's abandon
     * time drop the RSRs and retire, since a dead peer must not hold their copies for the life of
     * the context. Caller holds the flow's lock.
     */
    void stranded(RuntimeException why) {
        long now = System.nanoTime();
        if (!stranded) {
            stranded = true;
            strandedSince = now;
        }
        long left = owner.abandonAfterMs - TimeUnit.NANOSECONDS.toMillis(now - strandedSince);
        if (left > 0) {
            if (!retrying) {
                retrying = true;
                owner.stranded(flow, store.size(), left, why);
            }
            return;
        }
        int dropped = store.size();
        long bytes = store.bytes();
        store.abandon();
        binding = null;
        flow.retire();
        owner.abandoned(flow, dropped, bytes, why);
    }

    /** @return where the flow's RSRs go, for the shell: a stack such as {@code lz4/tcp} */
    String where() {
        BoundStack b = binding;
        return b == null ? "unbound"
            : b == BoundStack.LOCAL ? "local"
            : (b.stack().transforms().isEmpty() ? "" : b.stack().transforms().replace('+', '/') + "/")
                + b.channel().connection().method();
    }

    /** @return where RSRs go by size, for the shell, or {@code null} if one entry takes every size */
    SizeChoices bySize() {
        return bySize;
    }
}
