package io.polylink.spi;

import java.io.IOException;
import java.util.Optional;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Where contexts publish startpoints by name for bootstrap. Register as an OSGi service; the
 * context uses the highest-ranked one (the core's default is a directory of files).
 */
@ConsumerType
public interface NameRegistry {

    /**
     * @param name a valid name
     * @param startpoint the startpoint's text form
     * @throws IOException if it cannot be stored
     */
    void publish(String name, String startpoint) throws IOException;

    /**
     * @param name a valid name
     * @return the text published under it, if any
     * @throws IOException if the registry cannot be read
     */
    Optional<String> lookup(String name) throws IOException;

    /**
     * @param name a valid name; absent names are ignored
     * @throws IOException if it cannot be removed
     */
    void unpublish(String name) throws IOException;
}
