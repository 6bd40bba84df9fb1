/**
 * {@code bench magpie}: MagPIe's broadcast on clusters joined by emulated wide-area links
 * ({@link io.polylink.testkit.EmulatedWan}): the links measured by P-LogP, the original and the
 * two-layer broadcast timed against their estimates, and the heuristic's shapes against the
 * exhaustive search's. The command runs in the bench's JVM; each rank is a JVM of its own in its
 * cluster's namespace.
 */
package io.polylink.bench.internal.magpie;
