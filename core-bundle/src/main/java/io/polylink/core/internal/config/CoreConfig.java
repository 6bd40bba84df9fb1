package io.polylink.core.internal.config;

import org.osgi.service.component.annotations.ComponentPropertyType;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Configuration of the core, PID {@code io.polylink.core}: each key and its default, written once.
 * Read with {@link io.polylink.spi.Configuration#read}, which also takes a {@code String[]} key
 * such as {@code table} as the one comma-separated string a {@code .cfg} file gives. On a component
 * class, it makes the defaults the component's properties.
 */
@ComponentPropertyType
@ObjectClassDefinition(name = "Polylink core", description = "The context runtime of this framework")
public @interface CoreConfig {

    @AttributeDefinition(description = "Largest RSR payload sent or accepted, in bytes (1024..2^30)")
    int maxMessageSize() default 8 << 20;

    @AttributeDefinition(description = "Threads that run EXECUTOR handlers")
    int handlerThreads() default 2;

    @AttributeDefinition(description = "Stacks this context advertises after 'local', in order, "
        + "e.g. 'shm,lz4/tcp,tcp'; empty: every installed method, in preference order")
    String[] table() default {};

    @AttributeDefinition(description = "How long RSRs a peer has not acknowledged wait, tried again each "
        + "second, for a way to that peer (it died, or every method to it left) before they are dropped "
        + "and logged, in milliseconds")
    long abandonAfterMs() default 30_000;

    @AttributeDefinition(description = "How long a flow's receiver waits after the flow's last RSR before it "
        + "acknowledges what the sender has not asked about yet, so the sender drops its copies of a burst "
        + "that ended, in milliseconds (0..3600000); 0: only when the sender asks (every 64 RSRs or 16 MiB)")
    long quietAckMs() default 1000;

    @AttributeDefinition(description = "Publish this context's system endpoint (echo, relay) under this "
        + "name in the naming registry; empty: the framework property polylink.name, if set")
    String name() default "";

    @AttributeDefinition(description = "Fixed context id (a UUID). Empty: the id this core had when it last "
        + "stopped, kept in its bundle's data area; else, for a named context, one derived from the name, the "
        + "distribution folder and this machine; else a fresh random one")
    String id() default "";

    @AttributeDefinition(description = "Host identity of this context: contexts with the same one share memory "
        + "(shm). Empty: this machine's id and boot id; any other text names a host, for network namespaces or "
        + "containers that stand for separate hosts")
    String hostId() default "";

    @AttributeDefinition(description = "Site of this context: a cluster or organisation whose hosts are near one "
        + "another (1 to 64 letters, digits, '.', '_' and '-'). Transforms scoped to other sites apply between "
        + "contexts of different sites. Empty: this host is a site of its own")
    String site() default "";

    @AttributeDefinition(description = "Transforms or methods, one of which every stack a peer uses must have, "
        + "e.g. 'aead', or 'aead,shm' to exempt shm, which reaches this host only. RSRs on other stacks are refused "
        + "and replies never take them; empty: any stack")
    String[] require() default {};

    @AttributeDefinition(description = "As require, for peers that say they run on another host")
    String[] require_other$_$host() default {};

    @AttributeDefinition(description = "As require, for peers that say they run on another site")
    String[] require_other$_$site() default {};

    @AttributeDefinition(description = "Which startpoints the system endpoint's echo and relay send to: linked "
        + "(only contexts this context has a connection with, so a peer cannot make it dial an address of the "
        + "peer's choosing) or any")
    SystemTargets systemTargets() default SystemTargets.LINKED;

    @AttributeDefinition(description = "Bundle repository that methods and transforms this context meets but "
        + "lacks are installed from: path or URL of an OSGi Repository XML index (plain or gzipped), e.g. "
        + "repo/index.xml; empty: the framework property polylink.repository, else none")
    String repository() default "";

    @AttributeDefinition(description = "Install a missing method or transform from the repository when "
        + "selection or a descriptor file in deploy/ meets it")
    boolean install_enabled() default true;

    @AttributeDefinition(description = "Methods and transforms that may be installed that way; empty: "
        + "whatever the repository offers")
    String[] install_allowed() default {};
}
