package io.polylink.launcher.mpirun;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

/**
 * Where the ranks mpirun starts on other hosts report: a tcp port of mpirun's. Each rank connects,
 * proves it belongs to the job with the job's key and says where it is reached; once every rank
 * has, each hears where all the others are ({@code PEER} lines, then {@code WIRED}). Until the
 * job ends, mpirun and each rank say they are alive every {@link #BEAT}; a rank silent for
 * {@link #SILENCE} is reported, as its host or the network went. A rank that aborts the job says
 * so here, and mpirun tells a rank to stop here ({@code STOP}). The lines are those of
 * docs/across-hosts.md#the-rendezvous.
 *
 * <p>Threads: {@code polylink-mpirun-rendezvous} accepts, one {@code polylink-mpirun-link} thread
 * per connection reads it, and {@code polylink-mpirun-heartbeat} beats and watches for silence.
 * A connection must say hello within {@link #HELLO_WAIT}; at most {@link #MAX_PENDING} may be
 * saying it at once; lines are bounded.
 */
final class Rendezvous implements AutoCloseable {

    static final Duration BEAT = Duration.ofSeconds(1);
    static final Duration SILENCE = Duration.ofSeconds(5);
    static final Duration HELLO_WAIT = Duration.ofSeconds(10);
    static final int MAX_PENDING = 64;
    private static final int MAX_LINE = 64 << 10;

    /** Told on the heartbeat thread when a rank went silent, once per rank. */
    interface Listener {
        void silent(int rank, String why);
    }

    private final ServerSocket server;
    private final int size;
    private final byte[] key;
    private final List<String> contact;
    private final Listener listener;
    private final String[] startpoints;
    private final Link[] links;
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicReference<String> abort = new AtomicReference<>();
    private final List<Socket> unnamed = Collections.synchronizedList(new ArrayList<>());
    private final Thread acceptor;
    private final Thread heartbeat;
    private boolean wired;
    private volatile boolean closed;

    private Rendezvous(ServerSocket server, int size, List<String> contact, Listener listener) {
        this.server = server;
        this.size = size;
        this.key = new byte[16];
        new SecureRandom().nextBytes(key);
        this.contact = contact;
        this.listener = listener;
        this.startpoints = new String[size];
        this.links = new Link[size];
        this.acceptor = new Thread(this::accept, "polylink-mpirun-rendezvous");
        this.heartbeat = new Thread(this::beat, "polylink-mpirun-heartbeat");
        acceptor.setDaemon(true);
        heartbeat.setDaemon(true);
    }

    /**
     * Listens for the ranks of a job of {@code size}.
     *
     * @param bind the address to listen on, or {@code null} for every address of this host
     * @throws IOException if it cannot listen there
     */
    static Rendezvous open(String bind, int size, Listener listener) throws IOException {
        ServerSocket server = new ServerSocket();
        try {
            server.bind(new InetSocketAddress(bind == null ? null : InetAddress.getByName(bind), 0), MAX_PENDING);
            List<String> contact = new ArrayList<>();
            for (InetAddress a : bind == null ? addresses() : List.of(InetAddress.getByName(bind))) {
                String host = a.getHostAddress().replaceFirst("%.*", "");
                contact.add((host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + server.getLocalPort());
            }
            Rendezvous r = new Rendezvous(server, size, contact, listener);
            r.acceptor.start();
            r.heartbeat.start();
            return r;
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    /** @return this host's addresses ranks may reach it by: IPv4 first, loopback last */
    private static List<InetAddress> addresses() throws SocketException {
        List<InetAddress> out = new ArrayList<>();
        List<InetAddress> loopback = new ArrayList<>();
        for (NetworkInterface n : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!n.isUp()) {
                continue;
            }
            for (InetAddress a : Collections.list(n.getInetAddresses())) {
                if (a.isLoopbackAddress()) {
                    loopback.add(a);
                } else if (!a.isLinkLocalAddress()) {
                    out.add(a);
                }
            }
        }
        out.sort((a, b) -> Boolean.compare(!(a instanceof Inet4Address), !(b instanceof Inet4Address)));
        loopback.sort((a, b) -> Boolean.compare(!(a instanceof Inet4Address), !(b instanceof Inet4Address)));
        out.addAll(loopback);
        return out;
    }

    /** @return what a rank is told to connect to: {@code host:port}, comma-separated */
    String contact() {
        return String.join(",", contact);
    }

    /** @return the job's key, in hex */
    String key() {
        return HexFormat.of().formatHex(key);
    }

    /** @return whether every rank said hello and heard where the others are */
    synchronized boolean wired() {
        return wired;
    }

    /** @return the ranks that did not say hello yet */
    synchronized List<Integer> missing() {
        return IntStream.range(0, size).filter(r -> startpoints[r] == null).boxed().toList();
    }

    /** @return the first abort a rank reported: {@code RANK CODE REASON} */
    Optional<String> abort() {
        return Optional.ofNullable(abort.get());
    }

    /** Tells rank {@code rank} to stop, if it is connected. */
    void stop(int rank) {
        Link l;
        synchronized (this) {
            l = links[rank];
        }
        if (l != null) {
            l.send("STOP");
        }
    }

    private void accept() {
        while (!closed) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            if (pending.incrementAndGet() > MAX_PENDING) {
                pending.decrementAndGet();
                quietly(s);
                continue;
            }
            unnamed.add(s);
            Thread reader = new Thread(() -> serve(s), "polylink-mpirun-link");
            reader.setDaemon(true);
            reader.start();
        }
    }

    private void serve(Socket s) {
        Link link = null;
        try (s) {
            s.setTcpNoDelay(true);
            s.setSoTimeout((int) HELLO_WAIT.toMillis());
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8),
                8192);
            link = hello(s, line(in));
            pending.decrementAndGet();
            unnamed.remove(s);
            if (link == null) {
                return;
            }
            s.setSoTimeout(0);
            for (String line = line(in); line != null; line = line(in)) {
                link.heard = System.nanoTime();
                String[] parts = line.split(" ", 3);
                if (parts.length == 3 && parts[0].equals("ABORT") && parts[1].matches("-?\\d{1,9}")) {
                    abort.compareAndSet(null, link.rank + " " + parts[1] + " " + parts[2]);
                } else if (!line.equals("ALIVE")) {
                    return; // not a rank's line: the connection is not one to keep
                }
            }
        } catch (IOException e) {
            // the rank ended, or the connection broke: the rank's process says how it ended
        } finally {
            if (link == null) {
                if (unnamed.remove(s)) {
                    pending.decrementAndGet();
                }
            } else {
                link.ended = true;
            }
        }
    }

    /** @return the link of a rank that said a valid hello, or {@code null} */
    private Link hello(Socket s, String line) throws IOException {
        String[] parts = line == null ? new String[0] : line.split(" ", 4);
        if (parts.length != 4 || !parts[0].equals("HELLO")) {
            return null;
        }
        byte[] given;
        try {
            given = HexFormat.of().parseHex(parts[1]);
        } catch (IllegalArgumentException notHex) {
            return null;
        }
        if (!MessageDigest.isEqual(given, key)) {
            return null;
        }
        int rank;
        try {
            rank = Integer.parseInt(parts[2]);
        } catch (NumberFormatException notANumber) {
            return null;
        }
        Link link;
        synchronized (this) {
            if (rank < 0 || rank >= size || startpoints[rank] != null || closed) {
                return null;
            }
            link = new Link(rank, s.getOutputStream());
            startpoints[rank] = parts[3];
            links[rank] = link;
            Thread.currentThread().setName("polylink-mpirun-link-" + rank);
            if (IntStream.range(0, size).allMatch(r -> startpoints[r] != null)) {
                wired = true;
                for (Link l : links) {
                    for (int r = 0; r < size; r++) {
                        l.send("PEER " + r + " " + startpoints[r]);
                    }
                    l.send("WIRED");
                }
            }
        }
        return link;
    }

    /** @return the next line, or {@code null} at the end */
    private static String line(BufferedReader in) throws IOException {
        StringBuilder line = new StringBuilder(128);
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                return line.isEmpty() ? null : line.toString();
            }
            if (line.length() >= MAX_LINE) {
                throw new IOException("a line longer than " + MAX_LINE + " characters");
            }
            line.append((char) c);
        }
        return line.toString();
    }

    private void beat() {
        boolean[] reported = new boolean[size];
        while (!closed) {
            try {
                Thread.sleep(BEAT.toMillis()); // the beat's own period, not a wait for another thread
            } catch (InterruptedException e) {
                return;
            }
            Link[] now;
            synchronized (this) {
                now = links.clone();
            }
            for (Link l : now) {
                if (l != null && !l.ended) {
                    l.send("ALIVE");
                    long quiet = System.nanoTime() - l.heard;
                    if (quiet > SILENCE.toNanos() && !reported[l.rank] && !closed) {
                        reported[l.rank] = true;
                        listener.silent(l.rank, "said nothing for " + SILENCE.toSeconds() + " s");
                    }
                }
            }
        }
    }

    /** Stops listening and closes every connection: the ranks still running end, as they lost mpirun. */
    @Override
    public void close() {
        closed = true;
        quietly(server);
        synchronized (unnamed) {
            unnamed.forEach(Rendezvous::quietly);
        }
        synchronized (this) {
            for (Link l : links) {
                if (l != null) {
                    l.close();
                }
            }
        }
        heartbeat.interrupt();
        try {
            acceptor.join(BEAT.toMillis());
            heartbeat.join(BEAT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void quietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception alreadyClosed) {
            // nothing to release
        }
    }

    /** The connection of one rank that said hello. */
    private static final class Link {
        final int rank;
        private final OutputStream out;
        volatile long heard = System.nanoTime();
        volatile boolean ended;

        Link(int rank, OutputStream out) {
            this.rank = rank;
            this.out = out;
        }

        /** Sends a line; a connection that broke says so by its rank's end, not here. */
        void send(String line) {
            byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
            synchronized (out) {
                try {
                    out.write(bytes);
                    out.flush();
                } catch (IOException broken) {
                    ended = true;
                }
            }
        }

        void close() {
            quietly(out);
        }
    }
}
