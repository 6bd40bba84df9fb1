package io.polylink.core.internal.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.sun.jdi.AbsentInformationException;
import com.sun.jdi.ClassType;
import com.sun.jdi.Field;
import com.sun.jdi.IncompatibleThreadStateException;
import com.sun.jdi.IntegerValue;
import com.sun.jdi.Location;
import com.sun.jdi.Method;
import com.sun.jdi.ObjectReference;
import com.sun.jdi.ReferenceType;
import com.sun.jdi.StackFrame;
import com.sun.jdi.ThreadReference;
import com.sun.jdi.VirtualMachine;
import com.sun.jdi.event.BreakpointEvent;
import com.sun.jdi.event.ClassPrepareEvent;
import com.sun.jdi.event.Event;
import com.sun.jdi.event.EventSet;
import com.sun.jdi.event.StepEvent;
import com.sun.jdi.event.VMDeathEvent;
import com.sun.jdi.event.VMDisconnectEvent;
import com.sun.jdi.request.BreakpointRequest;
import com.sun.jdi.request.ClassPrepareRequest;
import com.sun.jdi.request.EventRequest;
import com.sun.jdi.request.EventRequestManager;
import com.sun.jdi.request.StepRequest;
import io.polylink.core.internal.channel.ChannelSender;
import io.polylink.core.internal.concurrent.Locks;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JVM raises a fault on a mapping as an Error at a later point of the thread that met it: any
 * call, return or turn of a loop (docs/methods.md#shm). Wherever in a region of a flow's or a
 * channel's lock such an Error comes, the region lets go of what it took, so nobody waits for
 * that lock for good.
 *
 * <p>No test can schedule the JVM's own delivery, so this one has the JVM raise an Error through
 * the debug interface, at an exact line: {@link LateErrorSubject} runs in a JVM of its own, and
 * for each line of each method that takes or lets go of those locks, the test stops the subject's
 * sending thread there once, has the Error raised on the spot, and at the subject's next
 * checkpoint looks at every such lock in the process.
 */
class LateErrorTest {

    /**
     * The methods the subject's sending thread runs that take or let go of a flow's or a channel's
     * lock. The others (hand-offs, the control thread's flushes, idle retiring and shrinking) run
     * on threads of their own and hold their regions the same way.
     */
    private static final Map<Class<?>, List<String>> REGIONS = Map.of(
        OutboundFlow.class, List.of("route", "send", "release", "unlockAndHandOver", "departed", "refused", "closed",
            "recover", "probeIdle", "retry", "unacknowledged", "describe", "counts", "lockBefore", "sent"),
        ChannelSender.class, List.of("bind", "sendOrDefer", "forget", "unlockAndFlush"),
        Locks.class, List.of("unlockTo"));
    private static final Map<Class<?>, String> LOCKS = Map.of(OutboundFlow.class, "lock", ChannelSender.class,
        "sendLock");
    /** Checkpoints without reaching a line before the test gives up on it: a few turns of the subject. */
    private static final int PATIENCE = 30;
    private static final long EVENT_WAIT_MS = 60_000;

    private VirtualMachine vm;
    private EventRequestManager requests;
    private ThreadReference sender;
    private BreakpointRequest checkpoint;
    private Deque<Location> lines;
    /** The line the Error is to come at next, and the breakpoint that stops the sending thread there. */
    private Location target;
    private BreakpointRequest armed;
    private int waited;
    private boolean raised;
    private final Map<String, Integer> raisedIn = new TreeMap<>();
    private final Set<String> notReached = new TreeSet<>();
    private final List<String> leaks = new ArrayList<>();

    @Test
    void anErrorRaisedAtAnyLineOfALockRegionLeavesNoFlowOrChannelLockHeld(@TempDir Path dir) throws Exception {
        try (Debuggee subject = Debuggee.launch(LateErrorSubject.class, dir.resolve("subject.out"))) {
            vm = subject.vm();
            requests = vm.eventRequestManager();
            ClassPrepareRequest prepared = requests.createClassPrepareRequest();
            prepared.addClassFilter(LateErrorSubject.class.getName());
            prepared.enable();
            try {
                run();
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError(e.getMessage() + "\nthe subject's output:\n" + subject.output(), e);
            }
            assertEquals(0, subject.awaitExit(30), () -> "the subject did not end well:\n" + subject.output());
        }
        assertTrue(leaks.isEmpty(), () -> leaks.size() + " lines where an Error left a lock held:\n"
            + String.join("\n", leaks));
        Set<String> missed = REGIONS.entrySet().stream()
            .flatMap(e -> e.getValue().stream().map(m -> e.getKey().getSimpleName() + "." + m))
            .filter(m -> !raisedIn.containsKey(m)).collect(Collectors.toCollection(TreeSet::new));
        assertTrue(missed.isEmpty(), () -> "the Error was never raised in " + missed + "; raised in " + raisedIn
            + "; not reached: " + notReached);
        System.out.println("Error raised at " + raisedIn.values().stream().mapToInt(Integer::intValue).sum()
            + " lines: " + raisedIn + "; not reached on the subject's thread: " + notReached);
    }

    /** Handles the subject's events until it ends. */
    private void run() throws Exception {
        vm.resume();
        while (true) {
            EventSet events = vm.eventQueue().remove(EVENT_WAIT_MS);
            if (events == null) {
                fail("the subject reached no checkpoint for " + EVENT_WAIT_MS / 1000 + " s; its sending thread: "
                    + stack(sender) + (target == null ? "" : "\nthe Error was to come at " + target));
            }
            for (Event event : events) {
                if (event instanceof ClassPrepareEvent prepare) {
                    Method method = prepare.referenceType().methodsByName("checkpoint").get(0);
                    checkpoint = requests.createBreakpointRequest(method.location());
                    checkpoint.setSuspendPolicy(EventRequest.SUSPEND_EVENT_THREAD);
                    checkpoint.enable();
                } else if (event instanceof BreakpointEvent hit && hit.request() == checkpoint) {
                    atCheckpoint(hit.thread());
                } else if (event instanceof BreakpointEvent hit) {
                    raise(hit.thread(), hit.location());
                } else if (event instanceof StepEvent step) {
                    requests.deleteEventRequest(step.request());
                } else if (event instanceof VMDeathEvent || event instanceof VMDisconnectEvent) {
                    if (lines == null || target != null) {
                        fail("the subject ended before the test was done");
                    }
                    return;
                }
            }
            events.resume();
        }
    }

    /**
     * Has the JVM raise the Error where the thread stopped, before the line runs: a step request
     * makes the thread look for it at once, as it would at a safepoint.
     */
    private void raise(ThreadReference thread, Location where) {
        ClassType subject = (ClassType) vm.classesByName(LateErrorSubject.class.getName()).get(0);
        try {
            thread.stop((ObjectReference) subject.getValue(subject.fieldByName("INJECTED")));
        } catch (Exception e) {
            throw new IllegalStateException("the debug interface could not raise the Error at " + where, e);
        }
        StepRequest step = requests.createStepRequest(thread, StepRequest.STEP_MIN, StepRequest.STEP_INTO);
        step.addCountFilter(1);
        step.enable();
        requests.deleteEventRequest(armed);
        armed = null;
        raised = true;
        raisedIn.merge(name(where.method()), 1, Integer::sum);
    }

    private void atCheckpoint(ThreadReference thread) throws Exception {
        if (sender == null) {
            sender = thread;
        }
        requests.deleteEventRequests(requests.stepRequests());
        if (lines == null) {
            lines = lines();
            if (lines == null) {
                return; // not every class is loaded yet
            }
            armNext();
            return;
        }
        if (raised) {
            lookAtLocks();
            armNext();
        } else if (++waited > PATIENCE) {
            notReached.add(name(target.method()) + ":" + target.lineNumber());
            requests.deleteEventRequest(armed);
            armNext();
        }
    }

    /** @return every line of the methods with regions, or {@code null} while a class is not loaded yet */
    private Deque<Location> lines() throws AbsentInformationException {
        Deque<Location> all = new ArrayDeque<>();
        for (Map.Entry<Class<?>, List<String>> entry : REGIONS.entrySet()) {
            List<ReferenceType> loaded = vm.classesByName(entry.getKey().getName());
            if (loaded.isEmpty()) {
                return null;
            }
            for (String name : entry.getValue()) {
                List<Method> methods = loaded.get(0).methodsByName(name);
                if (methods.isEmpty()) {
                    throw new IllegalStateException(entry.getKey().getSimpleName() + " has no method " + name
                        + " any more: LateErrorTest.REGIONS names the methods with a lock's region");
                }
                for (Method method : methods) {
                    all.addAll(method.allLineLocations());
                }
            }
        }
        return all;
    }

    private void armNext() {
        raised = false;
        waited = 0;
        target = lines.poll();
        if (target == null) {
            ClassType subject = (ClassType) vm.classesByName(LateErrorSubject.class.getName()).get(0);
            try {
                subject.setValue(subject.fieldByName("stop"), vm.mirrorOf(true));
            } catch (Exception e) {
                throw new IllegalStateException("the subject could not be told to stop", e);
            }
            requests.deleteEventRequest(checkpoint);
            return;
        }
        armed = requests.createBreakpointRequest(target);
        armed.addThreadFilter(sender);
        armed.setSuspendPolicy(EventRequest.SUSPEND_EVENT_THREAD);
        armed.enable();
    }

    /**
     * At a checkpoint the sending thread holds no lock of a flow or a channel; any other thread
     * that holds one is inside a method of the lock's class. A lock the sending thread kept is
     * let go of, through that thread, so the test goes on to the next line.
     */
    private void lookAtLocks() throws Exception {
        String where = name(target.method()) + ":" + target.lineNumber() + " (bci " + target.codeIndex() + ")";
        for (Map.Entry<Class<?>, String> entry : LOCKS.entrySet()) {
            ReferenceType type = vm.classesByName(entry.getKey().getName()).get(0);
            Field field = type.fieldByName(entry.getValue());
            for (ObjectReference holder : type.instances(0)) {
                ObjectReference lock = (ObjectReference) holder.getValue(field);
                ThreadReference owner = owner(lock);
                if (owner == null) {
                    if (state(lock) != 0) {
                        fail("after the Error at " + where + ", " + holder + "'s lock is taken and has no owner");
                    }
                } else if (owner.equals(sender)) {
                    leaks.add(where + ": " + holder.referenceType().name() + "." + entry.getValue() + " kept by "
                        + owner.name());
                    while (sender.equals(owner(lock))) {
                        Method unlock = lock.referenceType().methodsByName("unlock").get(0);
                        lock.invokeMethod(sender, unlock, List.of(), ObjectReference.INVOKE_SINGLE_THREADED);
                    }
                } else {
                    inRegion(owner, lock, type, where);
                }
            }
        }
    }

    /** Fails if {@code owner} holds {@code lock} outside any method of the lock's class. */
    private void inRegion(ThreadReference owner, ObjectReference lock, ReferenceType type, String where)
        throws IncompatibleThreadStateException {
        owner.suspend();
        try {
            if (owner.equals(owner(lock))
                && owner.frames().stream().noneMatch(f -> f.location().declaringType().equals(type))) {
                fail("after the Error at " + where + ", " + owner.name() + " holds a lock of " + type.name()
                    + " outside it: " + stack(owner));
            }
        } finally {
            owner.resume();
        }
    }

    private static ThreadReference owner(ObjectReference lock) {
        ObjectReference sync = (ObjectReference) lock.getValue(lock.referenceType().fieldByName("sync"));
        return (ThreadReference) sync.getValue(declared(sync, "exclusiveOwnerThread"));
    }

    private static int state(ObjectReference lock) {
        ObjectReference sync = (ObjectReference) lock.getValue(lock.referenceType().fieldByName("sync"));
        return ((IntegerValue) sync.getValue(declared(sync, "state"))).value();
    }

    /** A private field of the object's class or a superclass, which the debug interface does not inherit. */
    private static Field declared(ObjectReference object, String name) {
        for (ClassType c = (ClassType) object.referenceType(); c != null; c = c.superclass()) {
            Field f = c.fieldByName(name);
            if (f != null) {
                return f;
            }
        }
        throw new IllegalStateException(object.referenceType().name() + " has no field " + name);
    }

    private static String name(Method method) {
        String type = method.declaringType().name();
        return type.substring(type.lastIndexOf('.') + 1) + "." + method.name();
    }

    /** @return the thread's stack, suspending it to read it */
    private static String stack(ThreadReference thread) {
        if (thread == null) {
            return "(not seen yet)";
        }
        thread.suspend();
        try {
            return thread.frames().stream().map(StackFrame::location).map(Location::toString)
                .collect(Collectors.joining("\n  at ", "\n  at ", ""));
        } catch (IncompatibleThreadStateException e) {
            return "(unreadable: " + e + ")";
        } finally {
            thread.resume();
        }
    }
}
