package io.polylink.mpi.internal.boot;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A rank's connection to the {@code polylink mpirun} that started it on another host: the rank
 * says who it is and where it is reached, hears where every other rank is reached, says it is alive
 * every {@link #BEAT}, reports its abort, and is told to stop. mpirun going silent for
 * {@link #SILENCE} (its host or the network went) or closing the connection ends the rank: no rank
 * outlives its job. One thread, {@code polylink-mpi-mpirun}, reads and beats.
 *
 * <p>Lines of UTF-8 text (see docs/across-hosts.md#the-rendezvous): the rank sends
 * {@code HELLO <key> <rank> <startpoint>}, then {@code ALIVE} and perhaps
 * {@code ABORT <code> <reason>}; mpirun sends a {@code PEER <rank> <startpoint>} for every rank and
 * {@code WIRED} once all ranks said hello, {@code ALIVE}, and {@code STOP}.
 */
final class MpirunLink implements AutoCloseable {

    static final Duration BEAT = Duration.ofSeconds(1);
    static final Duration SILENCE = Duration.ofSeconds(5);
    private static final int CONNECT_MILLIS = 3000;
    /** The longest line mpirun may send: a startpoint's text is a few hundred bytes. */
    private static final int MAX_LINE = 64 << 10;

    /** What the link tells the rank it serves. */
    interface Listener {
        /** mpirun said to stop: the job is being ended. */
        void stopped();

        /** mpirun is gone: closed the connection or went silent; {@code why} says which. */
        void mpirunLost(String why);
    }

    private final Socket socket;
    private final BufferedReader in;
    private final OutputStream out;
    private final int size;
    private final Map<Integer, String> peers = new HashMap<>();
    private final Thread thread;
    private volatile Listener listener;
    private boolean wired;
    private String failure;
    /** Set when the rank closes the link: what the thread sees then is no loss of mpirun. */
    private volatile boolean closing;

    private MpirunLink(Socket socket, int size) throws IOException {
        this.socket = socket;
        this.in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        this.out = socket.getOutputStream();
        this.size = size;
        this.thread = new Thread(this::run, "polylink-mpi-mpirun");
        thread.setDaemon(true);
    }

    /**
     * Connects to mpirun, trying its addresses in order, says hello and starts the link's thread.
     *
     * @param startpoint this rank's startpoint, as text
     * @throws MpiError {@code ERR_OTHER} naming every address tried and why it failed
     */
    static MpirunLink open(LaunchSettings settings, String startpoint) {
        MpirunContact contact = settings.mpirun();
        List<String> failed = new ArrayList<>();
        for (MpirunContact.Address a : contact.addresses()) {
            Socket s = new Socket();
            try {
                s.connect(new InetSocketAddress(a.host(), a.port()), CONNECT_MILLIS);
                s.setTcpNoDelay(true);
                s.setSoTimeout((int) BEAT.toMillis());
                MpirunLink link = new MpirunLink(s, settings.size());
                link.send("HELLO " + HexFormat.of().formatHex(contact.key()) + " " + settings.rank() + " " + startpoint);
                link.thread.start();
                return link;
            } catch (IOException e) {
                failed.add(a + ": " + e.getMessage());
                try {
                    s.close();
                } catch (IOException alreadyBroken) {
                    // nothing to release
                }
            }
        }
        throw new MpiError(ErrorClass.ERR_OTHER, "MPI.Init: rank " + settings.rank() + " of job " + settings.job()
            + settings.onHost() + " cannot reach polylink mpirun (" + String.join("; ", failed) + "); mpirun's host "
            + "must accept tcp connections from every host of the job (see polylink mpirun --rendezvous)");
    }

    /**
     * Waits until mpirun said where every rank is reached.
     *
     * @return every rank's startpoint text, by rank
     * @throws MpiError {@code ERR_OTHER} if mpirun did not say within {@code limit}, or the link failed
     */
    synchronized Map<Integer, String> peers(Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!wired && failure == null) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new MpiError(ErrorClass.ERR_OTHER, "waited " + limit.toMillis() + " ms for polylink mpirun to "
                    + "say where the other ranks are; " + peers.size() + " of " + size + " had started ("
                    + LaunchSettings.WIREUP_TIMEOUT_MS + " sets the wait)");
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        if (!wired) {
            throw new MpiError(ErrorClass.ERR_OTHER, "polylink mpirun " + failure + " before the job was wired up");
        }
        return Map.copyOf(peers);
    }

    /** From now on, {@code listener} hears when mpirun stops the job or goes. */
    void listen(Listener listener) {
        this.listener = listener;
    }

    /** Tells mpirun this rank aborts the job, and why; a link that failed says nothing. */
    void abort(int code, String reason) {
        try {
            send("ABORT " + code + " " + reason.lines().findFirst().orElse("").strip());
        } catch (IOException gone) {
            // mpirun is gone: it learns of the abort from the rank's exit status, if at all
        }
    }

    private void send(String line) throws IOException {
        byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
        synchronized (out) {
            out.write(bytes);
            out.flush();
        }
    }

    private void run() {
        long heard = System.nanoTime();
        long beaten = heard;
        String why;
        while (true) {
            try {
                String line = in.readLine();
                if (line == null) {
                    why = "closed its connection";
                    break;
                }
                if (line.length() > MAX_LINE) {
                    why = "sent a line of " + line.length() + " characters";
                    break;
                }
                heard = System.nanoTime();
                if (!take(line)) {
                    why = "sent '" + line.substring(0, Math.min(line.length(), 40)) + "', which is not mpirun's";
                    break;
                }
            } catch (SocketTimeoutException quiet) {
                if (System.nanoTime() - heard > SILENCE.toNanos()) {
                    why = "was silent for " + SILENCE.toSeconds() + " s";
                    break;
                }
            } catch (IOException e) {
                why = "failed: " + e.getMessage();
                break;
            }
            if (System.nanoTime() - beaten >= BEAT.toNanos()) {
                beaten = System.nanoTime();
                try {
                    send("ALIVE");
                } catch (IOException e) {
                    why = "cannot be written to: " + e.getMessage();
                    break;
                }
            }
        }
        fail(why);
    }

    /** @return whether the line was one mpirun sends */
    private boolean take(String line) {
        if (line.equals("ALIVE")) {
            return true;
        }
        if (line.equals("STOP")) {
            Listener l = listener;
            if (l != null) {
                l.stopped();
            }
            return true;
        }
        synchronized (this) {
            if (line.equals("WIRED") && peers.size() == size) {
                wired = true;
                notifyAll();
                return true;
            }
            String[] parts = line.split(" ", 3);
            if (parts.length == 3 && parts[0].equals("PEER") && !wired) {
                try {
                    int rank = Integer.parseInt(parts[1]);
                    if (rank >= 0 && rank < size) {
                        peers.put(rank, parts[2]);
                        return true;
                    }
                } catch (NumberFormatException notARank) {
                    return false;
                }
            }
        }
        return false;
    }

    private void fail(String why) {
        synchronized (this) {
            failure = why;
            notifyAll();
        }
        closeSocket();
        Listener l = listener;
        if (l != null && !closing) {
            l.mpirunLost(why);
        }
    }

    /** Closes the connection, which ends the link's thread: mpirun sees this rank is done with it. */
    @Override
    public void close() {
        closing = true;
        closeSocket();
        if (Thread.currentThread() != thread) {
            try {
                thread.join(BEAT.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void closeSocket() {
        try {
            socket.close();
        } catch (IOException alreadyBroken) {
            // nothing to release
        }
    }
}
