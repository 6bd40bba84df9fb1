package io.polylink.mpi.programs;

import io.polylink.Context;
import io.polylink.core.internal.naming.DirectoryNameRegistry;
import io.polylink.core.internal.EmbeddedContext;
import io.polylink.method.shm.internal.ShmMethod;
import io.polylink.method.tcp.internal.TcpMethod;
import io.polylink.mpi.internal.boot.LaunchSettings;
import io.polylink.mpi.internal.boot.RankHost;
import io.polylink.mpi.job.Job;
import io.polylink.mpi.job.RankClassLoader;
import io.polylink.spi.HostIdentity;
import java.util.HashMap;
import java.util.Map;

/**
 * The host of a rank run by {@link Job}: an embedded context with the methods the job names (tcp
 * on 127.0.0.1, shm in the job's segment directory) and the job's naming directory, as the
 * methods' own tests make contexts; with {@code POLYLINK_MPI_HOST} the context says it runs on
 * that host, so ranks given different hosts reach each other by tcp only. Exiting records the
 * status instead of ending the JVM.
 */
public final class TestRankHost implements RankHost {

    private EmbeddedContext embedded;

    private RankClassLoader loader() {
        if (getClass().getClassLoader() instanceof RankClassLoader l) {
            return l;
        }
        throw new IllegalStateException("TestRankHost hosts ranks that io.polylink.mpi.job.Job starts");
    }

    @Override
    public Map<String, String> environment() {
        return loader().environment();
    }

    @Override
    public Context open(LaunchSettings settings) {
        Map<String, String> env = environment();
        String host = env.get(LaunchSettings.HOST);
        EmbeddedContext e = host == null ? EmbeddedContext.open() : EmbeddedContext.open(HostIdentity.named(host));
        try {
            for (String method : env.getOrDefault(Job.METHODS, "tcp").split(",")) {
                switch (method) {
                    case "tcp" -> e.add(new TcpMethod(with(env, LaunchSettings.TCP_SETTINGS,
                        "bindAddress", "127.0.0.1")), 50);
                    case "shm" -> e.add(new ShmMethod(with(env, LaunchSettings.SHM_SETTINGS,
                        "directory", env.get(Job.SHM_DIRECTORY))), 20);
                    default -> throw new IllegalArgumentException("no method " + method);
                }
            }
            if (settings.registry() != null) {
                e.registry(new DirectoryNameRegistry(settings.registry()));
            }
        } catch (RuntimeException failed) {
            e.close();
            throw failed;
        }
        embedded = e;
        loader().opened(e);
        return e.context();
    }

    /**
     * @return the job's own setting {@code key} of a method, with what {@code variable} adds, as a
     *     rank's runtime takes them
     */
    private static Map<String, Object> with(Map<String, String> env, String variable, String key, Object value) {
        Map<String, Object> settings = new HashMap<>(LaunchSettings.methodSettings(env, variable));
        settings.put(key, value);
        return settings;
    }

    @Override
    public void close() {
        if (embedded != null) {
            embedded.close();
            loader().closed(embedded);
            embedded = null;
        }
    }

    @Override
    public void exit(int status) {
        loader().exited(status);
    }
}
