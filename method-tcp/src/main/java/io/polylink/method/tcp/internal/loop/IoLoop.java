package io.polylink.method.tcp.internal.loop;

import io.polylink.spi.ProblemLog;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongUnaryOperator;

/**
 * An event thread: one selector, a task queue for other threads, timers, and an idle strategy.
 * Progress never waits for the application: handlers read their channels here.
 *
 * <p>While one channel carries a conversation (its handler says it is {@linkplain
 * IoHandler#pollable pollable}), the loop reads it directly and asks the selector only now and
 * then, and stops the selector watching it; everything else comes through the selector.
 *
 * <p>Other threads may receive in the loop's place ({@link #progress}): one thread at a time
 * holds the {@linkplain ReceivingTurn receiving turn}, and everything here called "loop thread
 * only" belongs to whoever holds it. A caller that finds the turn taken gets nothing at once, and
 * wakes the loop from a blocking select; while calls keep coming the loop, instead of spinning or
 * blocking, stands back between its turns (see {@link ReceivingTurn}). Once a whole nap passes
 * without a call, it goes back to its idle strategy: bytes that come after the last call wait at
 * most one nap (half a millisecond) and one turn.
 *
 * <p>No handler, task or timer ends the thread: whatever one throws is logged through the problem
 * log, the handler's channel is closed ({@link IoHandler#failed}), and the loop goes on. Only a
 * loop that cannot go on (its selector fails turn after turn, or is closed under it) stops, and
 * says so to whoever made it, so the method it serves fails visibly instead of going quiet.
 */
public final class IoLoop implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger("io.polylink.method.tcp");
    /**
     * While the loop reads a conversation directly, it asks the selector every this many turns,
     * and at least every {@link #SELECT_NANOS}, so long turns do not keep other channels waiting;
     * asking more often slows round trips (see docs/performance-notes.md#tcp-selecting-during-a-conversation).
     */
    private static final int SELECT_EVERY = 64;
    private static final long SELECT_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    /** Conversation turns in a row after which the loop stops the selector watching the {@link #hot} key. */
    private static final int UNWATCH_AFTER = 8;
    /** What a tick returns when it has no timers to run. */
    public static final long NO_TIMERS = Long.MAX_VALUE;
    /** Ticks come at most this often, so a timer that cannot act yet does not take the thread. */
    private static final long MIN_TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** A turn's work longer than this held the loop: what it handled, not what it waited for. */
    private static final long HELD_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /**
     * Turns that fail, each within {@link #FAILURES_APART_NANOS} of the one before, after which
     * the loop gives up: a selector that fails this often will not recover. Each failed turn
     * pauses {@link #FAILED_TURN_PAUSE_NANOS}, so the count spans at least a tenth of a second.
     */
    private static final int FAILED_TURNS_TO_GIVE_UP = 100;
    private static final long FAILURES_APART_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long FAILED_TURN_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /**
     * Spin-then-block spins only this long while the connection last read is the sending end of a
     * bulk stream ({@link IoHandler#sendsInBulk}) and no frame was queued lately: all it hears is
     * an acknowledgement now and then, and spinning through the gaps takes the core the sender
     * needs. A spin this long still takes a follow-up that comes at once. Spin never blocks, but
     * then yields between polls (see docs/performance-notes.md#tcp-spinning-at-the-sending-end-of-a-bulk-stream).
     */
    private static final long SHORT_SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(20);
    /** A sleep this long makes the next spin half as long: the link is used now and then. */
    private static final long QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /** How long {@link #close} waits for a caller's pass under way. */
    private static final long LAST_PASS_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final Selector selector;
    private final IdleStrategy idle;
    private final long spinNanos;
    /**
     * How long spin-then-block spins after work now, {@link #spinNanos} at most: halved, down to
     * {@link #SHORT_SPIN_NANOS}, after each sleep of {@link #QUIET_NANOS} or more, doubled after a
     * sleep that work ended within one spin. A loop woken by a sender on its own core holds that core from it while it
     * spins, so a link used now and then spins briefly (docs/performance-notes.md#tcp-an-adaptive-spin).
     */
    private long spinWindow;
    private final LongUnaryOperator tick;
    private final ProblemLog problems;
    private final Consumer<Throwable> stopped;
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final Thread thread;
    private volatile boolean running = true;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Who receives now: the loop's thread, or a caller inside {@link #progress}. */
    private final ReceivingTurn turn;
    /** Whether tasks wait, for a loop about to nap while callers receive. */
    private final BooleanSupplier tasksWaiting = () -> !tasks.isEmpty();
    /** Set while the thread is, or is about to be, blocked in the selector: only then wake it. */
    private volatile boolean sleeping;
    /**
     * Handed to the selector, which calls it per ready key: the selected-key set would add a node
     * per ready key and an iterator per select, garbage on every message.
     */
    private final Consumer<SelectionKey> dispatch = this::dispatch;
    /** As {@link #dispatch}, for a caller's select: reads only. */
    private final Consumer<SelectionKey> callerDispatch = this::dispatchForCaller;
    /**
     * The key that last had bytes to read. While its handler allows, the loop reads its channel
     * directly and asks the selector only every {@link #SELECT_EVERY} turns: a frame then costs
     * one system call to see, not an {@code epoll_wait} and a read. Loop thread only.
     */
    private SelectionKey hot;
    private int turns;
    /**
     * The loop took {@code OP_READ} off the {@link #hot} key while it reads that channel directly:
     * for every segment that reaches a socket in an epoll set, the kernel runs the selector's
     * wake-up callback on the sending side, with interrupts off (see
     * docs/performance-notes.md#tcp-unwatched-conversation-sockets). Watched again on the first
     * turn that is not a conversation's, when another key becomes hot, and before the loop
     * blocks. Loop thread only.
     */
    private boolean hotUnwatched;
    /** Conversation turns in a row on the {@link #hot} key. Loop thread only. */
    private int conversing;
    /** When the loop last asked the selector; loop thread only. */
    private long selectedAt;
    /** Whether a handler's key, in this select, had traffic. Loop thread only. */
    private boolean traffic;
    /** Whether {@link #tick} has timers to run, and when next. Loop thread only. */
    private boolean ticking = true;
    private long nextTick = System.nanoTime();
    /** When a blocking select's first ready key came, for what its handlers took; 0 before. Loop thread only. */
    private long woke;
    /** When the last turn with work was. Loop thread only. */
    private long lastWork = System.nanoTime();
    /**
     * When a connection last queued a frame the socket could not take. Only the loop drains such a
     * queue, so it spins in full while one may be filling: a blocked loop would first have to be
     * woken by the socket's room, and the receiver would wait meanwhile.
     */
    private volatile long queuedAt = lastWork - TimeUnit.DAYS.toNanos(1);
    /** Turns that failed in a row, and when the last did; loop thread only. */
    private int failedTurns;
    private long failedAt;

    /**
     * @param tick the timers: runs on the loop when due, first at once, with the nanoseconds the
     *     loop was held since the last tick (turns longer than {@link #HELD_NANOS}: long handlers,
     *     pauses), and returns the nanoseconds until it is due again; {@link #NO_TIMERS} lets an
     *     idle loop sleep until a channel is registered or becomes ready, or a task comes. It
     *     handles what its own timers throw; what it lets through counts as a failed turn
     * @param problems where the loop logs what handlers, tasks and turns threw
     * @param stopped told, on the loop's thread, if the loop stops without {@link #close}: it
     *     cannot go on, for the reason given
     */
    public IoLoop(String name, IdleStrategy idle, long spinNanos, LongUnaryOperator tick, ProblemLog problems,
                  Consumer<Throwable> stopped) throws IOException {
        this(name, idle, spinNanos, ReceivingTurn.NAP_NANOS, tick, problems, stopped);
    }

    /**
     * @param standBackNanos how long the loop naps between its turns while callers receive in its
     *     place ({@link ReceivingTurn})
     * @see #IoLoop(String, IdleStrategy, long, LongUnaryOperator, ProblemLog, Consumer)
     */
    public IoLoop(String name, IdleStrategy idle, long spinNanos, long standBackNanos, LongUnaryOperator tick,
                  ProblemLog problems, Consumer<Throwable> stopped) throws IOException {
        this.selector = Selector.open();
        this.idle = idle;
        this.spinNanos = spinNanos;
        this.spinWindow = spinNanos;
        this.tick = tick;
        this.problems = problems;
        this.stopped = stopped;
        this.thread = new Thread(this::run, name);
        this.thread.setDaemon(true);
        this.turn = new ReceivingTurn(thread, standBackNanos);
        this.thread.start();
    }

    /** @return whether the loop's thread runs: started, and neither closed nor stopped for good */
    public boolean alive() {
        return running && thread.isAlive();
    }

    /**
     * @return whether the caller receives for the loop now: runs on the loop's thread in a turn,
     *     or is a caller inside {@link #progress}, which may run the handlers of what it reads
     */
    public boolean inLoop() {
        return turn.heldBy(Thread.currentThread());
    }

    /** @return whether the loop is blocked in the selector, or about to be */
    public boolean asleep() {
        return sleeping;
    }

    /** A connection queued a frame for the loop to write; any thread. */
    public void queued(long now) {
        queuedAt = now;
    }

    /** Runs {@code task} on the loop, soon. */
    public void execute(Runnable task) {
        tasks.add(task);
        wake();
    }

    /**
     * Wakes the loop if it is blocked in the selector or napping, to run a task or see a key's new
     * interest; any thread.
     */
    public void wake() {
        if (asleep()) {
            selector.wakeup();
        } else {
            turn.endNap();
        }
    }

    /**
     * Receives once on the calling thread, in the loop's place: reads the channel the loop last
     * read directly if it carries a conversation (one {@code read}, no select), else asks the
     * selector once and reads every ready channel whose handler {@linkplain IoHandler#drivable
     * allows it}; the handlers of what comes run here. It runs no task or timer, and writes
     * nothing the sockets could not take: it unparks the loop for those. Never blocks.
     *
     * @return 1 if traffic came, 0 if nothing did, or if the loop or another caller holds the
     *     turn (the loop then stands back: see the class's javadoc), or the caller already holds
     *     it (a handler calling in), or the loop is closed
     */
    public int progress() {
        Thread caller = Thread.currentThread();
        if (!running || turn.heldBy(caller)) {
            return 0;
        }
        if (!turn.tryTake(caller)) {
            if (sleeping) {
                selector.wakeup(); // the loop blocks holding the turn: awake, it sees the call and naps
            }
            return 0;
        }
        try {
            return running && pass() ? 1 : 0;
        } finally {
            turn.release();
        }
    }

    /**
     * The callers stop receiving for now: the loop takes over unless one comes back within a
     * moment ({@link ReceivingTurn#handBack}). Any thread.
     */
    public void handBack() {
        turn.handBack();
    }

    /** A caller's pass, holding the turn. @return whether traffic came */
    private boolean pass() {
        try {
            return receive(System.nanoTime(), callerDispatch, true);
        } catch (ClosedSelectorException | IOException e) {
            turn.needLoop(); // the loop's own select meets it too, and says so, or is closing
            return false;
        }
    }

    /**
     * Reads the {@link #hot} key directly on its turns, else asks the selector, and then reads the
     * hot key too if the selector does not watch it: turns or passes that always come too late for
     * a direct read (a caller that calls now and then, the loop between its naps) would otherwise
     * never read it. A caller reads only channels whose handlers allow it.
     *
     * @return whether traffic came
     */
    private boolean receive(long now, Consumer<SelectionKey> action, boolean caller) throws IOException {
        SelectionKey direct = hotTurn(now);
        if (direct != null && (!caller || drivable(direct))) {
            return poll(direct);
        }
        boolean worked = selectNow(now, action);
        SelectionKey key = hot;
        if (hotUnwatched && key != null) {
            if (!caller || drivable(key)) {
                worked |= poll(key);
            } else {
                turn.needLoop();
            }
        }
        return worked;
    }

    private static boolean drivable(SelectionKey key) {
        return ((IoHandler) key.attachment()).drivable();
    }

    /** Runs the timers at the end of this turn, for a handler that set one sooner than they said; on the loop. */
    public void tickNow() {
        ticking = true;
        nextTick = System.nanoTime();
    }

    /**
     * Registers a channel; must run on the loop (through {@link #execute}).
     *
     * @return its key, or {@code null} if the channel was closed before the loop got to it
     */
    public SelectionKey register(SelectableChannel channel, int ops, IoHandler handler) {
        if (!ticking) {
            tickNow(); // a new channel may need its timers: the tick says when
        }
        try {
            return channel.register(selector, ops, handler);
        } catch (ClosedChannelException closed) {
            return null;
        }
    }

    private void run() {
        Throwable cause = null;
        try {
            turns();
        } catch (Throwable t) {
            cause = t;
        } finally {
            turn.leave();
            if (running) {
                running = false;
                stopped.accept(cause != null ? cause
                    : new IllegalStateException(thread.getName() + " left its loop without being closed"));
            }
        }
    }

    private void turns() {
        long turnEnd = lastWork;
        long held = 0;
        while (running) {
            try {
                boolean worked = receive(turnEnd, dispatch, false);
                worked |= runTasks();
                long now = System.nanoTime();
                if (now - turnEnd > HELD_NANOS) {
                    held += now - turnEnd;
                }
                turnEnd = now;
                if (ticking && now - nextTick >= 0) {
                    long in = tick.applyAsLong(held);
                    held = 0;
                    ticking = in != NO_TIMERS;
                    nextTick = ticking ? now + Math.max(MIN_TICK_NANOS, in) : now;
                }
                if (turn.called()) {
                    long waited = turn.standBack(tasksWaiting);
                    turnEnd = System.nanoTime();
                    if (waited > HELD_NANOS) {
                        held += waited; // a caller's handler held the turn: nobody read meanwhile
                    }
                } else if (worked) {
                    lastWork = now;
                } else if (idle == IdleStrategy.SPIN) {
                    if (bulkQuiet(now)) {
                        Thread.yield();
                    } else {
                        Thread.onSpinWait();
                    }
                } else if (idle == IdleStrategy.SPIN_THEN_BLOCK && now - lastWork < spinNanos(now)) {
                    Thread.onSpinWait();
                } else {
                    watchHot(); // nothing else reads it while the loop sleeps
                    sleeping = true;
                    traffic = false;
                    woke = 0;
                    // running too: a selectNow since close() called wakeup() took its effect, and
                    // without timers nothing else would end this select. called: a caller that
                    // came before sleeping was set did not wake the selector.
                    if (tasks.isEmpty() && running && !turn.called()) {
                        long millis = TimeUnit.NANOSECONDS.toMillis(nextTick - now + 999_999); // rounded up
                        selector.select(dispatch, ticking ? Math.max(1, millis) : 0); // 0: until woken
                    }
                    turnEnd = System.nanoTime();
                    selectedAt = turnEnd;
                    if (woke != 0 && turnEnd - woke > HELD_NANOS) {
                        held += turnEnd - woke;
                    }
                    if (traffic) {
                        lastWork = turnEnd;
                        adaptSpin(turnEnd - now);
                    }
                    sleeping = false;
                }
            } catch (ClosedSelectorException e) {
                if (running) {
                    throw e; // closed under the loop, not by close(): nothing left to select with
                }
            } catch (Throwable e) {
                turnFailed(e);
                turnEnd = System.nanoTime();
            }
        }
    }

    /**
     * A turn threw what no handler, task or timer took: logged, and after a pause the loop goes
     * on, unless turns have been failing in a row for too long.
     */
    private void turnFailed(Throwable e) {
        long now = System.nanoTime();
        failedTurns = now - failedAt < FAILURES_APART_NANOS ? failedTurns + 1 : 1;
        failedAt = now;
        if (failedTurns >= FAILED_TURNS_TO_GIVE_UP) {
            throw new IllegalStateException(thread.getName() + " failed " + failedTurns + " turns in a row, the last "
                + "with " + e, e);
        }
        problems.warn("failed turn", thread.getName() + " survived an unexpected failure and goes on: " + e, e);
        LockSupport.parkNanos(FAILED_TURN_PAUSE_NANOS);
    }

    /** Reads the {@link #hot} key's channel directly. @return whether traffic came */
    private boolean poll(SelectionKey key) {
        IoHandler handler = (IoHandler) key.attachment();
        try {
            return handler.poll();
        } catch (CancelledKeyException closedMeanwhile) {
            return false;
        } catch (Throwable e) {
            handlerFailed(key, handler, e);
            return false;
        }
    }

    /** A handler threw: logged, and its channel closed by the handler, or by the loop if the handler cannot. */
    private void handlerFailed(SelectionKey key, IoHandler handler, Throwable cause) {
        try {
            problems.warn("failed handler", Thread.currentThread().getName() + " closed " + handler + " after an unexpected "
                + cause + "; it goes on with the others", cause);
            handler.failed(cause);
        } catch (Throwable again) {
            key.cancel();
            try {
                key.channel().close();
            } catch (Throwable ignored) {
                // closed as far as it can be
            }
        }
    }

    /** @return how long spin-then-block spins after the last work, {@code now} being past it */
    private long spinNanos(long now) {
        return bulkQuiet(now) ? Math.min(spinWindow, SHORT_SPIN_NANOS) : spinWindow;
    }

    /** The loop slept {@code slept} nanoseconds in the selector before traffic woke it. */
    private void adaptSpin(long slept) {
        if (slept < spinNanos) {
            spinWindow = Math.min(spinNanos, 2 * spinWindow);
        } else if (slept > QUIET_NANOS) {
            spinWindow = Math.max(Math.min(spinNanos, SHORT_SPIN_NANOS), spinWindow / 2);
        }
    }

    /** @return whether the loop is idle at the sending end of a bulk stream, spun briefly and with nothing queued */
    private boolean bulkQuiet(long now) {
        if (now - lastWork < SHORT_SPIN_NANOS || now - queuedAt < spinNanos) {
            return false;
        }
        SelectionKey key = hot;
        return key != null && key.isValid() && ((IoHandler) key.attachment()).sendsInBulk();
    }

    /** @return whether a ready key had traffic */
    private boolean selectNow(long now, Consumer<SelectionKey> action) throws IOException {
        selectedAt = now;
        traffic = false;
        selector.selectNow(action);
        return traffic;
    }

    /** @return the {@link #hot} key on the turns it is read directly, null on the selector's */
    private SelectionKey hotTurn(long now) {
        SelectionKey key = hot;
        if (key != null && !key.isValid()) {
            hot = key = null;
            hotUnwatched = false;
        }
        if (key == null) {
            return null;
        }
        if (!((IoHandler) key.attachment()).pollable()) {
            conversing = 0;
            watchHot();
            return null;
        }
        if (!hotUnwatched && ++conversing >= UNWATCH_AFTER) {
            // Takes effect at the next select, which asks the kernel anyway: no system call of its own.
            try {
                key.interestOpsAnd(~SelectionKey.OP_READ);
                hotUnwatched = true;
            } catch (CancelledKeyException closedMeanwhile) {
                return null;
            }
        }
        boolean direct = (++turns & SELECT_EVERY - 1) != 0 && now - selectedAt < SELECT_NANOS;
        return direct ? key : null;
    }

    /** Has the selector watch the {@link #hot} key's reads again, if the loop stopped it. */
    private void watchHot() {
        if (!hotUnwatched) {
            return;
        }
        hotUnwatched = false;
        try {
            hot.interestOpsOr(SelectionKey.OP_READ);
        } catch (CancelledKeyException closedMeanwhile) {
            // nothing left to read
        }
    }

    /**
     * @return whether the selector would report the bytes of the channel the loop last read: not
     *     while the loop reads a conversation's channel directly
     */
    public boolean watchesHot() {
        SelectionKey key = hot;
        return key == null || !key.isValid() || (key.interestOps() & SelectionKey.OP_READ) != 0;
    }

    private void dispatch(SelectionKey key) {
        if (sleeping) { // the first key of a blocking select: a task queued by a handler needs no wake-up now
            sleeping = false;
            woke = System.nanoTime();
        }
        try {
            if ((key.readyOps() & SelectionKey.OP_READ) != 0) {
                heatUp(key);
            }
            traffic |= ((IoHandler) key.attachment()).ready(key);
        } catch (CancelledKeyException closedMeanwhile) {
            // another thread closed the channel, and told whoever needs to know
        } catch (Throwable e) {
            handlerFailed(key, (IoHandler) key.attachment(), e);
        }
    }

    /** A caller's select found {@code key} ready: reads it if its handler allows, and leaves the rest to the loop. */
    private void dispatchForCaller(SelectionKey key) {
        IoHandler handler = (IoHandler) key.attachment();
        try {
            int ready = key.readyOps();
            boolean read = (ready & SelectionKey.OP_READ) != 0 && handler.drivable();
            if (!read || ready != SelectionKey.OP_READ) {
                turn.needLoop();
            }
            if (read) {
                heatUp(key);
                traffic |= handler.poll();
            }
        } catch (CancelledKeyException closedMeanwhile) {
            // another thread closed the channel, and told whoever needs to know
        } catch (Throwable e) {
            handlerFailed(key, handler, e);
        }
    }

    /** {@code key} has bytes to read: it becomes the {@link #hot} key, if it was not. */
    private void heatUp(SelectionKey key) {
        if (key != hot) {
            watchHot();
            conversing = 0;
            hot = key;
        }
    }

    private boolean runTasks() {
        Runnable task = tasks.poll();
        if (task == null) {
            return false;
        }
        do {
            try {
                task.run();
            } catch (Throwable e) {
                problems.warn("failed task", thread.getName() + " survived a task that failed: " + e, e);
            }
        } while ((task = tasks.poll()) != null);
        return true;
    }

    /** Stops the thread and closes the selector and every channel still registered; once, from any thread. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        running = false;
        selector.wakeup();
        turn.close();
        if (Thread.currentThread() != thread) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (thread.isAlive()) {
                LOG.log(Level.WARNING, thread.getName() + " did not stop within 5 s");
            }
        }
        // No pass reads a channel as it closes.
        Thread receiving = turn.awaitLastPass(LAST_PASS_NANOS);
        if (receiving != null) {
            LOG.log(Level.WARNING, receiving + " was still receiving for " + thread.getName() + " "
                + TimeUnit.NANOSECONDS.toSeconds(LAST_PASS_NANOS) + " s after it was closed; its channels close "
                + "under it");
        }
        if (!selector.isOpen()) {
            return; // closed under the loop, which stopped for it: its channels' owners close them
        }
        for (SelectionKey key : selector.keys()) {
            if (!key.isValid()) {
                continue; // cancelled: the channel moved on (an accepted connection) or is closed already
            }
            try {
                key.channel().close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        try {
            selector.close();
        } catch (IOException ignored) {
            // nothing left to release
        }
    }
}
