package io.polylink.core.internal.config;

import io.polylink.ContextId;
import io.polylink.Descriptor;
import io.polylink.core.internal.wire.Origin;
import io.polylink.spi.Configuration;
import io.polylink.spi.HostIdentity;
import io.polylink.spi.InvalidSettingException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

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
    /** A URL scheme of two or more letters, so {@code C:\\repo} stays a path. */
    private static final Pattern URL = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]+:.*");

    public CoreSettings {
        Configuration.requireRange(PID, "maxMessageSize", maxMessageSize, 1024, 1 << 30);
        Configuration.requireRange(PID, "handlerThreads", handlerThreads, 1, 1024);
        Configuration.requireRange(PID, "abandonAfterMs", abandonAfterMs, 1, TimeUnit.DAYS.toMillis(1));
        Configuration.requireRange(PID, "quietAckMs", quietAckMs, 0, TimeUnit.HOURS.toMillis(1));
        if (!Origin.isSite(site)) {
            throw new InvalidSettingException(PID, "site", site, "at most 64 letters, digits, '.', '_' and '-'");
        }
        table = List.copyOf(table);
        for (String stack : table) {
            try {
                new Descriptor(stack, new byte[0]);
            } catch (IllegalArgumentException e) {
                throw new InvalidSettingException(PID, "table", String.join(",", table), "a comma-separated list of "
                    + "method stacks such as 'shm,lz4/tcp,tcp' (" + e.getMessage() + ")");
            }
        }
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
        if (!config.repository().isBlank()) {
            repository(config.repository());
        }
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

    /** @return these settings for a context whose id is {@code id} */
    public CoreSettings withId(ContextId id) {
        return new CoreSettings(maxMessageSize, handlerThreads, table, id, abandonAfterMs, quietAckMs, host, site,
            required, systemTargets);
    }

    /** @return these settings for a context on {@code host} */
    public CoreSettings onHost(HostIdentity host) {
        return new CoreSettings(maxMessageSize, handlerThreads, table, id, abandonAfterMs, quietAckMs, host, site,
            required, systemTargets);
    }

    /**
     * @param text a path or URL of a bundle repository index, as the {@code repository} key holds it;
     *     a relative path is taken from the working directory
     * @return the URL it stands for
     * @throws InvalidSettingException if it is neither
     */
    public static URI repository(String text) {
        String t = text.strip();
        try {
            return URL.matcher(t).matches() ? new URI(t) : Path.of(t).toAbsolutePath().normalize().toUri();
        } catch (URISyntaxException | InvalidPathException e) {
            throw new InvalidSettingException(PID, "repository", text, "the path or URL of an OSGi Repository XML "
                + "index, such as repo/index.xml or https://example.org/polylink/index.xml (" + e.getMessage() + ")");
        }
    }

    private static ContextId id(String text) {
        if (text.isEmpty()) {
            return null;
        }
        try {
            return ContextId.parse(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidSettingException(PID, "id", text, "a context id (a UUID such as "
                + "6f1d7c2a-0000-4000-8000-00000000000b), or empty");
        }
    }
}
