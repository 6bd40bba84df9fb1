package io.polylink.registry.zookeeper.internal;

import io.polylink.spi.NameRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * Published names as ephemeral ZooKeeper nodes {@code <chroot>/<group>/<name>} holding the
 * startpoint's text; the chroot and group nodes are containers, which ZooKeeper removes once they
 * are empty (a job's node goes with its last rank). A name published here is published again
 * whenever the client connects after losing its session (ZooKeeper removed the node then), so it
 * outlives a ZooKeeper restart. A name another context holds is taken over, as the directory
 * registry replaces a file.
 *
 * <p>Every ZooKeeper call runs on the thread {@code polylink-zookeeper} (so that ZooKeeper's own
 * threads, named after the thread that makes the client, are {@code polylink-zookeeper-…} too); a
 * caller waits for it at most the operation timeout, and gets an {@link IOException} naming the
 * ensemble and what failed.
 */
final class ZooKeeperNameRegistry implements NameRegistry, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ZooKeeperNameRegistry.class.getName());
    /** Bytes a published startpoint may have, as in the directory registry. */
    static final int MAX_BYTES = 64 << 10;

    private final RegistrySettings settings;
    private final ExecutorService thread;
    private final CuratorFramework client;
    private final Map<String, String> published = new ConcurrentHashMap<>();
    private final String base;

    private ZooKeeperNameRegistry(RegistrySettings settings) {
        this.settings = settings;
        this.base = settings.chroot().equals("/") ? "/" + settings.group() : settings.chroot() + "/" + settings.group();
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "polylink-zookeeper");
            t.setDaemon(true);
            return t;
        });
        AtomicInteger curatorThreads = new AtomicInteger();
        this.client = CuratorFrameworkFactory.builder()
            .connectString(settings.connect())
            .sessionTimeoutMs((int) settings.sessionTimeout().toMillis())
            .connectionTimeoutMs((int) settings.connectionTimeout().toMillis())
            .retryPolicy(new RetryNTimes(2, 200))
            .threadFactory(r -> {
                Thread t = new Thread(r, "polylink-zookeeper-curator-" + curatorThreads.incrementAndGet());
                t.setDaemon(true);
                return t;
            })
            .build();
        client.getConnectionStateListenable().addListener((c, state) -> {
            if (state == ConnectionState.RECONNECTED || state == ConnectionState.CONNECTED) {
                thread.execute(this::republish);
            } else if (state == ConnectionState.LOST) {
                LOG.log(Level.WARNING, "lost the ZooKeeper session with " + settings.connect() + "; the names "
                    + "published here are published again once it is back: " + published.keySet());
            }
        });
    }

    /**
     * Starts a registry; it connects in the background, and calls wait for the connection.
     *
     * @throws IOException if the client cannot start
     */
    static ZooKeeperNameRegistry open(RegistrySettings settings) throws IOException {
        ZooKeeperNameRegistry r = new ZooKeeperNameRegistry(settings);
        try {
            r.thread.submit(r.client::start).get(settings.operationTimeout().toMillis(), TimeUnit.MILLISECONDS);
            return r;
        } catch (ExecutionException | TimeoutException e) {
            r.close();
            throw new IOException("the ZooKeeper client of " + settings.connect() + " cannot start: " + e, e);
        } catch (InterruptedException e) {
            r.close();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting the ZooKeeper client of " + settings.connect());
        } catch (RuntimeException e) {
            r.close();
            throw e;
        }
    }

    @Override
    public void publish(String name, String startpoint) throws IOException {
        byte[] data = startpoint.getBytes(StandardCharsets.US_ASCII);
        if (data.length > MAX_BYTES) {
            throw new IOException("a startpoint of " + data.length + " bytes is larger than " + MAX_BYTES);
        }
        call("publish '" + name + "'", () -> {
            write(path(name), data);
            published.put(name, startpoint);
            return null;
        });
    }

    /** Creates the node, or takes it over: this session's own is written; another's is replaced. */
    private void write(String path, byte[] data) throws Exception {
        while (true) {
            try {
                client.create().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(path, data);
                return;
            } catch (KeeperException.NodeExistsException taken) {
                Stat stat = new Stat();
                try {
                    client.getData().storingStatIn(stat).forPath(path);
                    if (stat.getEphemeralOwner() == client.getZookeeperClient().getZooKeeper().getSessionId()) {
                        client.setData().withVersion(stat.getVersion()).forPath(path, data);
                        return;
                    }
                    client.delete().withVersion(stat.getVersion()).forPath(path);
                } catch (KeeperException.NoNodeException | KeeperException.BadVersionException changed) {
                    // another context moved meanwhile: try again with what is there now
                }
            }
        }
    }

    @Override
    public Optional<String> lookup(String name) throws IOException {
        return call("look up '" + name + "'", () -> {
            try {
                byte[] data = client.getData().forPath(path(name));
                if (data == null || data.length > MAX_BYTES) {
                    throw new IOException(path(name) + " holds " + (data == null ? "nothing" : data.length + " bytes")
                        + ", which is no published startpoint; remove it");
                }
                return Optional.of(new String(data, StandardCharsets.US_ASCII).strip());
            } catch (KeeperException.NoNodeException none) {
                return Optional.empty();
            }
        });
    }

    @Override
    public void unpublish(String name) throws IOException {
        published.remove(name);
        call("unpublish '" + name + "'", () -> {
            Stat stat = client.checkExists().forPath(path(name));
            if (stat != null && stat.getEphemeralOwner() == client.getZookeeperClient().getZooKeeper().getSessionId()) {
                try {
                    client.delete().withVersion(stat.getVersion()).forPath(path(name));
                } catch (KeeperException.NoNodeException | KeeperException.BadVersionException notOursAnyMore) {
                    // another context published the name meanwhile: it is theirs to withdraw
                }
            }
            return null;
        });
    }

    /** Publishes every name again, after a connection; a session that survived keeps them as they are. */
    private void republish() {
        for (Map.Entry<String, String> e : published.entrySet()) {
            try {
                write(path(e.getKey()), e.getValue().getBytes(StandardCharsets.US_ASCII));
            } catch (Exception failed) {
                LOG.log(Level.WARNING, "could not publish '" + e.getKey() + "' again in ZooKeeper "
                    + settings.connect() + ": " + failed + "; it is tried again at the next connection");
            }
        }
    }

    private String path(String name) {
        return base + "/" + name;
    }

    /** Runs {@code work} on the registry's thread, waiting at most the operation timeout. */
    private <T> T call(String what, Callable<T> work) throws IOException {
        long limit = settings.operationTimeout().toMillis();
        var future = thread.submit(() -> {
            if (!client.getZookeeperClient().blockUntilConnectedOrTimedOut()) {
                throw new IOException("ZooKeeper " + settings.connect() + " cannot be reached (waited "
                    + settings.connectionTimeout().toMillis() + " ms for a connection)");
            }
            return work.call();
        });
        try {
            return future.get(limit, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            throw new IOException("cannot " + what + " in ZooKeeper " + settings.connect() + ": no answer within "
                + limit + " ms");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof IOException io ? io : new IOException("cannot " + what + " in ZooKeeper "
                + settings.connect() + ": " + cause, cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while trying to " + what + " in ZooKeeper " + settings.connect());
        }
    }

    /** Closes the session, which removes this registry's names at once, and ends its threads. */
    @Override
    public void close() {
        published.clear();
        try {
            thread.submit(client::close).get(settings.operationTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            LOG.log(Level.WARNING, "the ZooKeeper client of " + settings.connect() + " did not close cleanly: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            thread.shutdownNow();
            try {
                thread.awaitTermination(settings.operationTimeout().toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public String toString() {
        return "ZooKeeper registry " + settings.connect() + base;
    }
}
