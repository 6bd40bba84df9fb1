/**
 * Measuring P-LogP link models ({@link io.polylink.plogp.LinkModel}) between two ranks of an MPI
 * job, by MagPIe's procedure over MPI point-to-point: {@link io.polylink.mpi.plogp.PLogPMeasurement}.
 * {@code polylink plogp} runs it for a list of stacks and writes the installation's models.
 */
@Export
@Version("1.0.0")
package io.polylink.mpi.plogp;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
