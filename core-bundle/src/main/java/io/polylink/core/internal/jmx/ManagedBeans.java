package io.polylink.core.internal.jmx;

import io.polylink.Context;
import io.polylink.core.internal.flow.FlowWatcher;
import io.polylink.core.internal.flow.Flows;
import io.polylink.core.internal.flow.OutboundFlow;
import java.lang.System.Logger.Level;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Registers a context and its links in the platform MBean server, and unregisters them as they
 * go. A link's bean is registered on {@code later}, one thread, in the order its flow began and
 * ended, never on the thread that made the flow. A name taken already (two frameworks in one JVM
 * with one fixed id) or a server that refuses costs only that bean, and says so once.
 */
public final class ManagedBeans implements FlowWatcher, AutoCloseable {

    /** The domain of every Polylink bean. */
    public static final String DOMAIN = "io.polylink";

    private static final System.Logger LOG = System.getLogger("io.polylink.core");

    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final String context;
    private final Flows flows;
    private final Executor later;
    /** Guarded by this. */
    private final Map<Long, ObjectName> links = new HashMap<>();
    /** Guarded by this; {@code null} if it could not be registered. */
    private ObjectName contextName;
    /** Guarded by this. */
    private boolean closed;

    /**
     * Registers the context's bean, and from now on one per link.
     *
     * @param name the name the context is published under now, or {@code null}
     * @param later runs registrations off the threads that make and forget flows, in order
     */
    public ManagedBeans(Context context, Supplier<String> name, Flows flows, Executor later) {
        this.context = context.id().toString();
        this.flows = flows;
        this.later = later;
        synchronized (this) {
            contextName = register(new ContextBean(context, name, flows), "type=Context,context=" + this.context);
        }
        flows.watch(this);
    }

    @Override
    public void opened(OutboundFlow flow) {
        run(() -> {
            if (!closed && !links.containsKey(flow.id())) {
                ObjectName name = register(new LinkBean(flow),
                    "type=Link,context=" + context + ",link=" + String.format("%016x", flow.id()));
                if (name != null) {
                    links.put(flow.id(), name);
                }
            }
        });
    }

    @Override
    public void closed(OutboundFlow flow) {
        run(() -> unregister(links.remove(flow.id())));
    }

    private void run(Runnable task) {
        try {
            later.execute(() -> {
                synchronized (this) {
                    task.run();
                }
            });
        } catch (RejectedExecutionException stopping) {
            // the context is closing, and close() takes every bean out
        }
    }

    /** @return the bean's name, or {@code null} if it was not registered (and said why) */
    private ObjectName register(Object bean, String keys) {
        try {
            return server.registerMBean(bean, new ObjectName(DOMAIN + ":" + keys)).getObjectName();
        } catch (JMException | RuntimeException e) {
            LOG.log(Level.WARNING, "JMX bean " + DOMAIN + ":" + keys + " not registered: " + e);
            return null;
        }
    }

    private void unregister(ObjectName name) {
        if (name == null) {
            return;
        }
        try {
            server.unregisterMBean(name);
        } catch (JMException | RuntimeException e) {
            LOG.log(Level.DEBUG, "JMX bean " + name + " was gone already: " + e);
        }
    }

    /** Unregisters the context's bean and every link's. */
    @Override
    public synchronized void close() {
        flows.watch(FlowWatcher.NONE);
        closed = true;
        links.values().forEach(this::unregister);
        links.clear();
        unregister(contextName);
        contextName = null;
    }
}
