package io.polylink.itests.process;

import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * A node's JVM seen from the test's, through the attach API and the JVM's own management beans:
 * what a test checks a node did not leak (threads, direct memory) after bad input.
 */
final class RemoteJvm implements AutoCloseable {

    private final VirtualMachine vm;
    private final JMXConnector connector;
    private final MBeanServerConnection beans;

    private RemoteJvm(VirtualMachine vm, JMXConnector connector) throws IOException {
        this.vm = vm;
        this.connector = connector;
        this.beans = connector.getMBeanServerConnection();
    }

    /** Attaches to the JVM of process {@code pid}, which must run as this user. */
    static RemoteJvm attach(long pid) throws Exception {
        VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
        try {
            return new RemoteJvm(vm, JMXConnectorFactory.connect(new JMXServiceURL(vm.startLocalManagementAgent())));
        } catch (Exception e) {
            vm.detach();
            throw e;
        }
    }

    /** @return the JVM's MBean server, as jconsole sees it */
    MBeanServerConnection beans() {
        return beans;
    }

    /** @return bytes of direct buffers in use, after a garbage collection let go of those unreachable */
    long directMemoryAfterGc() throws IOException {
        ManagementFactory.newPlatformMXBeanProxy(beans, ManagementFactory.MEMORY_MXBEAN_NAME, MemoryMXBean.class).gc();
        return ManagementFactory.getPlatformMXBeans(beans, BufferPoolMXBean.class).stream()
            .filter(p -> p.getName().equals("direct")).mapToLong(BufferPoolMXBean::getMemoryUsed).sum();
    }

    /** @return the names of the live threads whose name starts with {@code prefix}, one entry per thread */
    List<String> threads(String prefix) throws IOException {
        ThreadMXBean threads = ManagementFactory.newPlatformMXBeanProxy(beans, ManagementFactory.THREAD_MXBEAN_NAME,
            ThreadMXBean.class);
        return Arrays.stream(threads.getThreadInfo(threads.getAllThreadIds())).filter(Objects::nonNull)
            .map(ThreadInfo::getThreadName).filter(n -> n.startsWith(prefix)).sorted().toList();
    }

    @Override
    public void close() throws IOException {
        try {
            connector.close();
        } finally {
            vm.detach();
        }
    }
}
