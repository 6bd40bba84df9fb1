package io.polylink.core.internal.registry;

import io.polylink.Descriptor;
import io.polylink.PolylinkException;
import io.polylink.core.internal.config.RequiredStacks;
import io.polylink.core.internal.wire.EncodedTable;
import io.polylink.core.internal.wire.Origin;
import io.polylink.spi.CommunicationMethod;
import io.polylink.spi.MethodContext;
import io.polylink.spi.Transform;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

/**
 * The methods and transforms installed in this context, and the descriptor table it advertises
 * from them. Changes are serialised by this object's lock and each starts a new
 * {@linkplain #generation() generation}, so every link selects again on its next send; lookups
 * take no lock. Called by whoever installs (the OSGi component, an embedding application, the
 * descriptor-file installer) and read by selection and the channels.
 */
public final class Installed {

    private final Map<String, InstalledMethod> methods = new ConcurrentHashMap<>();
    private final Map<String, Transform> transforms = new ConcurrentHashMap<>();
    private final OwnTable own;
    private final List<Runnable> watchers = new CopyOnWriteArrayList<>();
    private final Origin origin;
    private volatile RequiredStacks required;
    private volatile EncodedTable table;
    /** The installed methods as an array, so that {@link #progress} in a caller's wait loop allocates nothing. */
    private volatile CommunicationMethod[] polled = {};
    private volatile int generation;

    /**
     * @param configured the stacks the configuration names for the table; empty for every method
     * @param origin where this context runs, which its table says
     * @param required the stacks this context accepts RSRs on and sends them on; its table lists
     *     only stacks every peer may use
     */
    public Installed(List<String> configured, Origin origin, RequiredStacks required) {
        this.own = new OwnTable(configured, origin, required);
        this.origin = origin;
        this.required = required;
        this.table = own.build(methods, transforms.keySet());
    }

    /**
     * Starts a method and adds it to this context's table.
     *
     * @param preference its place in the table when the configuration names no order: lower first
     * @param deliversOnSend whether its connections deliver each frame before their send returns
     * @param context what the method is started with
     * @throws IllegalArgumentException if its name is invalid or taken
     * @throws PolylinkException if it fails to start
     */
    public void addMethod(CommunicationMethod method, int preference, boolean deliversOnSend, MethodContext context) {
        add(method, preference, deliversOnSend, context);
        tableChanged();
    }

    private synchronized void add(CommunicationMethod method, int preference, boolean deliversOnSend,
                                  MethodContext context) {
        String name = method.name();
        if (!Descriptor.validName(name) || methods.containsKey(name)) {
            throw new IllegalArgumentException("method name '" + name + "' is invalid or already installed");
        }
        try {
            method.start(context);
        } catch (Throwable t) {
            // An Error too (a native library that will not load): the method fails visibly, the caller goes on.
            try {
                method.stop();
            } catch (Throwable ignored) {
                t.addSuppressed(ignored);
            }
            throw new PolylinkException("method " + name + " failed to start: "
                + (t instanceof Exception ? t.getMessage() : t.toString()), t);
        }
        methods.put(name, new InstalledMethod(method, preference, method.localAddress(), deliversOnSend));
        changed();
    }

    /**
     * Takes a method out of the table; the caller stops it.
     *
     * @return whether it was the installed method of its name
     */
    public boolean removeMethod(CommunicationMethod method) {
        return tableChanged(remove(method));
    }

    private synchronized boolean remove(CommunicationMethod method) {
        InstalledMethod installed = methods.get(method.name());
        if (installed == null || installed.method() != method) {
            return false;
        }
        methods.remove(method.name());
        changed();
        return true;
    }

    /** @throws IllegalArgumentException if its name is invalid or taken */
    public void addTransform(Transform transform) {
        add(transform);
        tableChanged();
    }

    private synchronized void add(Transform transform) {
        if (!Descriptor.validName(transform.name()) || transforms.putIfAbsent(transform.name(), transform) != null) {
            throw new IllegalArgumentException("transform name '" + transform.name()
                + "' is invalid or already installed");
        }
        changed();
    }

    /** @return whether it was the installed transform of its name */
    public boolean removeTransform(Transform transform) {
        return tableChanged(remove(transform));
    }

    private synchronized boolean remove(Transform transform) {
        if (transforms.remove(transform.name(), transform)) {
            changed();
            return true;
        }
        return false;
    }

    /** Adds the stacks of a descriptor file ({@code deploy/NAME.method}) to this context's table. */
    public void deploy(String file, List<String> stacks) {
        tableChanged(change(() -> own.deploy(file, stacks)));
    }

    /** Withdraws the stacks a descriptor file added. */
    public void withdraw(String file) {
        tableChanged(change(() -> own.withdraw(file)));
    }

    /**
     * Lists these stacks after {@code local} and those of descriptor files from now on, as the
     * configuration's {@code table} says.
     *
     * @param stacks the stacks, in order; empty for every installed method in preference order
     */
    public void configure(List<String> stacks) {
        tableChanged(change(() -> own.configure(stacks)));
    }

    /**
     * Accepts RSRs on, and sends them on, the stacks {@code next} admits from now on: links select
     * again on their next send, and the table lists only stacks every peer may use. Stacks peers
     * announced before are not checked again; the caller reopens their connections.
     */
    public void require(RequiredStacks next) {
        tableChanged(change(() -> {
            required = next;
            return own.require(next);
        }));
    }

    /**
     * Has {@code watcher} run after each change of this context's table, on the thread that made
     * it, outside this registry's lock: it may publish the table, or read this registry.
     */
    public void watch(Runnable watcher) {
        watchers.add(watcher);
    }

    /** Stops running {@code watcher}. */
    public void unwatch(Runnable watcher) {
        watchers.remove(watcher);
    }

    /** Makes every link select again on its next send: what selection decides by has changed. */
    public synchronized void invalidate() {
        generation++;
    }

    /**
     * Under the lock that adds and removes methods, so a method listed here is in the table
     * already: a startpoint made right after this showed one once went out without it, and its
     * first reply found no way back.
     *
     * @return the names of the installed methods
     */
    public synchronized Set<String> methodNames() {
        return new TreeSet<>(methods.keySet());
    }

    /** @return the names of the installed transforms, under the lock, as {@link #methodNames()} */
    public synchronized Set<String> transformNames() {
        return new TreeSet<>(transforms.keySet());
    }

    /** @return the installed methods, for the context to stop them as it closes */
    public List<CommunicationMethod> methods() {
        return methods.values().stream().map(InstalledMethod::method).toList();
    }

    /**
     * Lets every installed method receive once on the calling thread.
     *
     * @return the sum of what the methods received
     */
    public int progress() {
        int received = 0;
        for (CommunicationMethod method : polled) {
            received += method.progress();
        }
        return received;
    }

    /** Tells every installed method that callers stop receiving for now. */
    public void handBackReceiving() {
        for (CommunicationMethod method : polled) {
            method.handBackReceiving();
        }
    }

    /** @return the installed transforms, for the context to remove them as it closes */
    public List<Transform> transforms() {
        return List.copyOf(transforms.values());
    }

    /** @return the generation: it changes whenever what selection decides by changes */
    public int generation() {
        return generation;
    }

    /** @return this context's descriptor table now */
    public EncodedTable table() {
        return table;
    }

    /** @return where this context runs, as its table says */
    public Origin origin() {
        return origin;
    }

    /** @return the stacks this context accepts RSRs on, and sends them on, by where the peer runs */
    public RequiredStacks required() {
        return required;
    }

    /** @return the installed method of that name, or {@code null} */
    public CommunicationMethod method(String name) {
        InstalledMethod m = methods.get(name);
        return m == null ? null : m.method();
    }

    /** @return the installed transform of that name, or {@code null} */
    public Transform transform(String name) {
        return transforms.get(name);
    }

    /**
     * @return whether connections of the installed method of that name deliver each frame before
     *     their send returns (the {@code local} method's do); {@code false} if none is installed
     */
    public boolean deliversOnSend(String method) {
        InstalledMethod m = methods.get(method);
        return m != null && m.deliversOnSend();
    }

    /** Runs an edit of the own table under the lock. @return whether it changed the table, now rebuilt */
    private synchronized boolean change(BooleanSupplier edit) {
        boolean changed = edit.getAsBoolean();
        if (changed) {
            changed();
        }
        return changed;
    }

    /** Tells the watchers, outside the lock, if {@code changed}. @return {@code changed} */
    private boolean tableChanged(boolean changed) {
        if (changed) {
            tableChanged();
        }
        return changed;
    }

    private void tableChanged() {
        watchers.forEach(Runnable::run);
    }

    /** Rebuilds the table and makes every link select again. Caller holds the lock. */
    private void changed() {
        polled = methods.values().stream().map(InstalledMethod::method).toArray(CommunicationMethod[]::new);
        table = own.build(methods, transforms.keySet());
        generation++;
    }
}
