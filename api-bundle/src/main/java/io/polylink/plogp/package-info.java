/**
 * Parameterized LogP (P-LogP) models of links, as MagPIe uses them: a link's latency {@code L}
 * and, as functions of the message size {@code m}, its send overhead {@code os(m)}, receive
 * overhead {@code or(m)} and gap {@code g(m)}, measured between two contexts over one method
 * stack; and the file of an installation's models, keyed by where the two contexts run
 * ({@link io.polylink.spi.PeerLocation}) and by stack. {@code polylink plogp} measures and writes
 * them; MPI jobs get them at start, and their broadcasts across sites take the shape the
 * models estimate fastest.
 */
@Export
@Version("1.0.0")
package io.polylink.plogp;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
