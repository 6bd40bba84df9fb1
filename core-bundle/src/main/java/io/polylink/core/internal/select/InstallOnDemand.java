package io.polylink.core.internal.select;

/**
 * What selection tells when it meets a method or transform this context lacks, so a provisioner
 * can fetch it. Outside OSGi there is nothing to fetch from: {@link #NONE}.
 */
public interface InstallOnDemand {

    /** Capability namespace of method bundles: {@code polylink.method;polylink.method=<name>}. */
    String METHOD = "polylink.method";

    /** Capability namespace of transform bundles: {@code polylink.transform;polylink.transform=<name>}. */
    String TRANSFORM = "polylink.transform";

    /** Fetches nothing and says nothing. */
    InstallOnDemand NONE = (namespace, name) -> "";

    /**
     * Called on a sending (or explaining) thread, so it must not block: it may only start work
     * elsewhere. Called again on every selection that meets the name; acting once is the callee's job.
     *
     * @param namespace {@link #METHOD} or {@link #TRANSFORM}
     * @param name the method or transform name
     * @return text to append to the entry's "not installed" reason: empty, or starting with "; "
     */
    String missing(String namespace, String name);
}
