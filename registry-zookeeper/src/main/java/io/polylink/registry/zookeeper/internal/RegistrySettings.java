package io.polylink.registry.zookeeper.internal;

import io.polylink.spi.InvalidSettingException;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * The ZooKeeper registry's settings, checked.
 *
 * @param connect the ensemble, {@code host:port,...}
 * @param chroot the installation's node, an absolute path
 * @param group the node under it that holds the names: a job's id, or {@code names}
 * @param sessionTimeout how long ZooKeeper keeps the session (and so the names) of a context it
 *     cannot hear
 * @param connectionTimeout how long a call waits for a connection
 * @param operationTimeout how long a caller waits for a call in all
 */
record RegistrySettings(String connect, String chroot, String group, Duration sessionTimeout,
                        Duration connectionTimeout, Duration operationTimeout) {

    static final String PID = "io.polylink.registry";
    private static final Pattern ENSEMBLE = Pattern.compile("[A-Za-z0-9.:\\[\\]_-]+(,[A-Za-z0-9.:\\[\\]_-]+)*");
    private static final Pattern CHROOT = Pattern.compile("/|(/[A-Za-z0-9._-]+)+");
    private static final Pattern GROUP = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}");

    /** @throws InvalidSettingException naming the key whose value is wrong */
    static RegistrySettings of(ZooKeeperRegistryComponent.Config c) {
        if (!ENSEMBLE.matcher(c.connect()).matches()) {
            throw new InvalidSettingException(PID, "connect", c.connect(), "host:port of each ZooKeeper server, "
                + "comma-separated");
        }
        if (!CHROOT.matcher(c.chroot()).matches()) {
            throw new InvalidSettingException(PID, "chroot", c.chroot(), "an absolute path such as /polylink");
        }
        if (!GROUP.matcher(c.group()).matches()) {
            throw new InvalidSettingException(PID, "group", c.group(), "1 to 128 letters, digits, '.', '_' and '-'");
        }
        if (c.sessionTimeoutMs() < 1000 || c.connectionTimeoutMs() < 100) {
            throw new InvalidSettingException(PID, c.sessionTimeoutMs() < 1000 ? "sessionTimeoutMs"
                : "connectionTimeoutMs", Integer.toString(c.sessionTimeoutMs() < 1000 ? c.sessionTimeoutMs()
                : c.connectionTimeoutMs()), "at least " + (c.sessionTimeoutMs() < 1000 ? "1000" : "100") + " ms");
        }
        Duration connection = Duration.ofMillis(c.connectionTimeoutMs());
        return new RegistrySettings(c.connect(), c.chroot(), c.group(), Duration.ofMillis(c.sessionTimeoutMs()),
            connection, connection.multipliedBy(3));
    }
}
