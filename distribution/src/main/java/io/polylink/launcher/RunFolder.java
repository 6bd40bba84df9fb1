package io.polylink.launcher;

import static java.nio.file.StandardOpenOption.CREATE;
import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.WRITE;

import io.polylink.launcher.NodeState.State;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;

/**
 * run/: which nodes of this distribution are running. A running node holds an exclusive lock on
 * {@code run/NAME.pid}, the file with its pid, from before its framework starts until after it
 * has stopped. The lock goes with the process however the process ends, so a name belongs to one
 * live node, and a pid file that nobody holds is stale. {@code run/NAME.properties} holds what the
 * node says about itself ({@link NameClaim}). Claims, probes and removals take {@code run/.lock}
 * first, so a pid file is never removed under a node that has just opened it, and a probe never
 * makes a starting node believe its name is taken.
 */
record RunFolder(Path dir) {

    private static final String PID = ".pid";
    /** File locks belong to the process, not the thread: threads of one JVM take turns here first. */
    private static final ReentrantLock THIS_PROCESS = new ReentrantLock();

    Path pidFile(String name) {
        return dir.resolve(name + PID);
    }

    Path factsFile(String name) {
        return dir.resolve(name + ".properties");
    }

    /**
     * Takes {@code name} for this process and writes its pid. A stale pid file is replaced.
     *
     * @throws NameTakenException if a running node holds the name; nothing is changed then
     */
    NameClaim claim(String name) throws IOException, NameTakenException {
        try (Turn turn = turn()) {
            FileChannel channel = FileChannel.open(pidFile(name), CREATE, READ, WRITE);
            try {
                FileLock lock = channel.tryLock();
                if (lock == null) {
                    throw new NameTakenException(name, pidIn(channel));
                }
                long stale = pidIn(channel);
                Files.deleteIfExists(factsFile(name));
                channel.truncate(0);
                channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
                channel.force(false);
                return new NameClaim(this, name, channel, stale);
            } catch (IOException | NameTakenException | RuntimeException e) {
                channel.close();
                throw e;
            }
        }
    }

    /** Removes a claim's files and frees its name; the claim's channel holds the lock until then. */
    void release(String name, FileChannel channel) throws IOException {
        try (Turn turn = turn(); channel) {
            Files.deleteIfExists(factsFile(name));
            Files.deleteIfExists(pidFile(name));
        }
    }

    /** @return whether the node called {@code name} runs, with its pid and facts */
    NodeState probe(String name) throws IOException {
        try (Turn turn = turn()) {
            FileChannel channel;
            try {
                channel = FileChannel.open(pidFile(name), READ);
            } catch (NoSuchFileException e) {
                return new NodeState(name, State.STOPPED, 0, Map.of());
            }
            try (channel) {
                long pid = pidIn(channel);
                FileLock shared = channel.tryLock(0, Long.MAX_VALUE, true);
                if (shared == null) {
                    return new NodeState(name, State.RUNNING, pid, facts(name));
                }
                shared.release();
                return new NodeState(name, State.STALE, pid, facts(name));
            }
        }
    }

    /** @return every node with a pid file, by name */
    List<NodeState> probeAll() throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<String> names;
        try (Stream<Path> files = Files.list(dir)) {
            names = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(PID) && !n.startsWith("."))
                .map(n -> n.substring(0, n.length() - PID.length())).sorted().toList();
        }
        List<NodeState> states = new ArrayList<>();
        for (String name : names) {
            NodeState state = probe(name);
            if (state.state() != State.STOPPED) {
                states.add(state);
            }
        }
        return states;
    }

    /**
     * Removes the files of a node that ended without removing them.
     *
     * @return the state found: STALE if the files were removed, RUNNING if a node holds the name
     */
    NodeState removeStale(String name) throws IOException {
        try (Turn turn = turn()) {
            FileChannel channel;
            try {
                channel = FileChannel.open(pidFile(name), READ, WRITE);
            } catch (NoSuchFileException e) {
                return new NodeState(name, State.STOPPED, 0, Map.of());
            }
            try (channel) {
                long pid = pidIn(channel);
                if (channel.tryLock() == null) {
                    return new NodeState(name, State.RUNNING, pid, facts(name));
                }
                Map<String, String> facts = facts(name);
                Files.deleteIfExists(factsFile(name));
                Files.deleteIfExists(pidFile(name));
                return new NodeState(name, State.STALE, pid, facts);
            }
        }
    }

    /** @return the facts a node wrote about itself; empty if there are none */
    Map<String, String> facts(String name) throws IOException {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(factsFile(name), StandardCharsets.UTF_8)) {
            p.load(in);
        } catch (NoSuchFileException e) {
            return Map.of();
        }
        Map<String, String> facts = new TreeMap<>();
        p.stringPropertyNames().forEach(k -> facts.put(k, p.getProperty(k)));
        return facts;
    }

    /** Replaces a node's facts file in one step, so a reader sees the old facts or the new. */
    void writeFacts(String name, Map<String, String> facts) throws IOException {
        Properties p = new Properties();
        p.putAll(facts);
        Path temp = Files.createTempFile(dir, "." + name, ".tmp");
        try {
            try (Writer out = Files.newBufferedWriter(temp, StandardCharsets.UTF_8)) {
                p.store(out, "polylink node " + name + ", while it runs");
            }
            try {
                Files.move(temp, factsFile(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, factsFile(name), StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private static long pidIn(FileChannel channel) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(32);
        while (buffer.hasRemaining() && channel.read(buffer, buffer.position()) > 0) {
            // a pid file is a few bytes
        }
        String text = new String(buffer.array(), 0, buffer.position(), StandardCharsets.US_ASCII).strip();
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private Turn turn() throws IOException {
        THIS_PROCESS.lock();
        FileChannel channel = null;
        try {
            Files.createDirectories(dir);
            channel = FileChannel.open(dir.resolve(".lock"), CREATE, WRITE);
            channel.lock();
            return new Turn(channel);
        } catch (IOException | RuntimeException e) {
            if (channel != null) {
                channel.close();
            }
            THIS_PROCESS.unlock();
            throw e;
        }
    }

    /** This process's turn at run/: the lock on run/.lock, held for a few file operations. */
    private record Turn(FileChannel channel) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            try {
                channel.close();
            } finally {
                THIS_PROCESS.unlock();
            }
        }
    }
}
