package io.polylink.mpi.internal.boot;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Finds the {@link RankHost} a rank runs in: one a launcher or a test declares as a service, or
 * by default one that starts a Polylink runtime in this JVM.
 */
final class RankHosts {

    private RankHosts() {}

    /**
     * @return the first {@link RankHost} service visible to this bundle's class loader, or else
     *     an {@link EmbeddedRankHost}, which starts the rank's own runtime
     * @throws MpiError {@code ERR_OTHER} if a service is declared but cannot be loaded
     */
    static RankHost find() {
        try {
            return ServiceLoader.load(RankHost.class, RankHost.class.getClassLoader()).findFirst()
                .orElseGet(EmbeddedRankHost::new);
        } catch (ServiceConfigurationError e) {
            throw new MpiError(ErrorClass.ERR_OTHER, "MPI.Init cannot load its " + RankHost.class.getName()
                + " service: " + e.getMessage(), e);
        }
    }
}
