package io.polylink.core.internal.config;

import io.polylink.ContextId;
import io.polylink.Descriptor;
import io.polylink.core.internal.wire.Origin;
import io.polylink.spi.Configuration;
import io.polylink.spi.HostIdentity;
import io.polylink.spi.InvalidSettingException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The core's parameters, from the {@code io.polylink.core} configuration ({@link CoreConfig}, where
 * each default is written), checked: a value out of range fails with an
 * {@link InvalidSettingException} naming its key.
 *
 * @param maxMessageSize largest RSR payload in bytes
 * @param handlerThreads threads running {@link io.polylink.Delivery#EXECUTOR} handlers
 * @param table the stacks this context advertises, in order, after {@code local}; empty for every
 *     installed method in preference order
 * @param id the context id to use, or {@code null} for a random one
 * @param abandonAfterMs how long RSRs a peer has not acknowledged wait for a way to it, tried
 *     again each second, before they are dropped
 * @param quietAckMs how long a flow's receiver waits after its last RSR before acknowledging what
 *     the sender has not asked about, so the sender lets its copies go; 0: only when asked
 * @param host the identity of this host
 * @param site the name of this context's site, or empty if this host is a site of its own
 * @param required the stacks this context accepts RSRs on, and sends them on, by where the peer runs
 * @param systemTargets which startpoints the system endpoint's echo and relay send to
 */
public record CoreSettings(int maxMessageSize, int handlerThreads, List<String> table, ContextId id,
                    long abandonAfterMs, long quietAckMs, HostIdentity host, String site, RequiredStacks required,
                    SystemTargets systemTargets) {

    /** The configuration PID. */
    public static final String PID = "io.polylink.core";
    public static final CoreSettings DEFAULTS = of(Map.of());

    public CoreSettings {
        Configuration.requireRange(PID, "maxMessageSize", maxMessageSize, 1024, 1 << 30);
        Configuration.requireRange(PID, "handlerThreads", handlerThreads, 1, 1024);
        Configuration.requireRange(PID, "abandonAfterMs", abandonAfterMs, 1, TimeUnit.DAYS.toMillis(1));
        Configuration.requireRange(PID, "quietAckMs", quietAckMs, 0, TimeUnit.HOURS.toMillis(1));
        if (!Origin.isSite(site)) {
            throw new InvalidSettingException(PID, "site", site, "at most 64 letters, digits, '.', '_' and '-'");
        }
        table = List.copyOf(table);
    }

    /**
     * @param properties the configuration, as Configuration Admin or a {@code .cfg} file gives it
     * @return the settings
     * @throws InvalidSettingException naming the key whose value cannot be used
     */
    public static CoreSettings of(Map<String, ?> properties) {
        return of(Configuration.read(PID, CoreConfig.class, properties));
    }

    /** @throws InvalidSettingException naming the key whose value cannot be used */
    public static CoreSettings of(CoreConfig config) {
        return new CoreSettings(config.maxMessageSize(), config.handlerThreads(), Arrays.asList(config.table()),
            id(config.id()), config.abandonAfterMs(), config.quietAckMs(),
            config.hostId().isEmpty() ? LocalHost.identity() : HostIdentity.named(config.hostId()), config.site(),
            new RequiredStacks(names(RequiredStacks.EVERYONE, config.require()),
                names(RequiredStacks.OTHER_HOST, config.require_other$_$host()),
                names(RequiredStacks.OTHER_SITE, config.require_other$_$site())),
            config.systemTargets());
    }

    /** @throws InvalidSettingException naming the key if a name is not one a transform or method can have */
    private static List<String> names(String key, String[] names) {
        for (String name : names) {
            if (!Descriptor.validName(name)) {
                throw new InvalidSettingException(PID, key, String.join(",", names), "names of transforms or "
                    + "methods, comma-separated, such as 'aead' or 'aead,shm'");
            }
        }
        return List.of(names);
    }

    /** @return where a context of these settings runs, as it tells its peers */
    public Origin origin() {
        return new Origin(host, site);
    }

    /** @return these settings for a context on {@code host} */
    public CoreSettings onHost(HostIdentity host) {
        return new CoreSettings(maxMessageSize, handlerThreads, table, id, abandonAfterMs, quietAckMs, host, site,
            required, systemTargets);
    }

    private static ContextId id(String text) {
        if (text.isEmpty()) {
            return null;
        }
        try {
            return ContextId.parse(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidSettingException(PID, "id", text, "a context id (a UUID such as "
                + "6f1d7c2a-0000-4000-8000-00000000000b), or empty for a fresh one at each start");
        }
    }
}
