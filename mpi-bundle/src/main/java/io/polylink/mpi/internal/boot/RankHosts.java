package io.polylink.mpi.internal.boot;

import io.polylink.mpi.internal.ErrorClass;
import io.polylink.mpi.internal.MpiError;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/** Finds the {@link RankHost} a rank runs in. */
final class RankHosts {

    private RankHosts() {}

    /**
     * @return the first {@link RankHost} service visible to this bundle's class loader
     * @throws MpiError {@code ERR_OTHER} if there is none, saying how ranks get one
     */
    static RankHost find() {
        try {
            return ServiceLoader.load(RankHost.class, RankHost.class.getClassLoader()).findFirst()
                .orElseThrow(() -> new MpiError(ErrorClass.ERR_OTHER, "MPI.Init needs a Polylink context for this rank, "
                    + "and no " + RankHost.class.getName() + " service is on the class path to open one; start the "
                    + "rank with a launcher that provides it"));
        } catch (ServiceConfigurationError e) {
            throw new MpiError(ErrorClass.ERR_OTHER, "MPI.Init cannot load its " + RankHost.class.getName()
                + " service: " + e.getMessage(), e);
        }
    }
}
