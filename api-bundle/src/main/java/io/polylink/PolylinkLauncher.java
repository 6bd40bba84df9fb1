package io.polylink;

import org.osgi.annotation.versioning.ProviderType;

/**
 * What {@link Polylink#start} hands its settings to: implemented by
 * {@code io.polylink:polylink-embedded} and found through {@link java.util.ServiceLoader}.
 * Applications call {@link Polylink#start}, not this.
 */
@ProviderType
public interface PolylinkLauncher {

    /**
     * @param settings what to start
     * @return the running context's handle
     * @throws PolylinkException as {@link Polylink#start} says
     */
    Polylink start(PolylinkSettings settings);
}
