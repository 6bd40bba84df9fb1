package io.polylink.core.internal.flow;

import com.sun.jdi.Bootstrap;
import com.sun.jdi.VirtualMachine;
import com.sun.jdi.connect.Connector;
import com.sun.jdi.connect.IllegalConnectorArgumentsException;
import com.sun.jdi.connect.ListeningConnector;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A JVM of the test's class path, started suspended under the Java Debug Interface, with its
 * output in a file. Closing it ends the process whatever state it is in.
 */
final class Debuggee implements AutoCloseable {

    private static final String CONNECT_TIMEOUT_MS = "30000";

    private final Process process;
    private final VirtualMachine vm;
    private final Path output;

    private Debuggee(Process process, VirtualMachine vm, Path output) {
        this.process = process;
        this.vm = vm;
        this.output = output;
    }

    /** Starts {@code main} in a JVM of its own, suspended before its first instruction. */
    static Debuggee launch(Class<?> main, Path output) throws IOException {
        ListeningConnector connector = Bootstrap.virtualMachineManager().listeningConnectors().stream()
            .filter(c -> c.name().equals("com.sun.jdi.SocketListen")).findFirst()
            .orElseThrow(() -> new IllegalStateException("this JDK's debug interface cannot listen on a socket"));
        Map<String, Connector.Argument> arguments = connector.defaultArguments();
        arguments.get("localAddress").setValue("127.0.0.1");
        arguments.get("port").setValue("0");
        arguments.get("timeout").setValue(CONNECT_TIMEOUT_MS);
        try {
            String address = connector.startListening(arguments);
            Process process = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-agentlib:jdwp=transport=dt_socket,server=n,suspend=y,address=" + address,
                "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), main.getName()))
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
            try {
                return new Debuggee(process, connector.accept(arguments), output);
            } catch (IOException | RuntimeException e) {
                process.destroyForcibly();
                throw e;
            }
        } catch (IllegalConnectorArgumentsException e) {
            throw new IllegalStateException("the socket connector refused its own arguments", e);
        } finally {
            try {
                connector.stopListening(arguments);
            } catch (IllegalConnectorArgumentsException | IOException e) {
                // it listened for one connection only
            }
        }
    }

    VirtualMachine vm() {
        return vm;
    }

    /** @return the exit code once the process ended by itself within {@code seconds}, else {@code null} */
    Integer awaitExit(long seconds) throws InterruptedException {
        return process.waitFor(seconds, TimeUnit.SECONDS) ? process.exitValue() : null;
    }

    /** @return what the process printed so far, for a failure's message */
    String output() {
        try {
            return Files.readString(output);
        } catch (IOException e) {
            return "(its output cannot be read: " + e + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the debugged JVM " + process.pid() + " did not end 30 s after it was killed");
        }
    }
}
