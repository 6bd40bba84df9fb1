/**
 * Polylink for users: contexts, endpoints, startpoints and the messages they carry.
 *
 * <p>A {@link io.polylink.Context} is the runtime of one JVM. It creates
 * {@link io.polylink.Endpoint}s; an endpoint hands out {@link io.polylink.Startpoint}s, which
 * can travel to other contexts inside messages and send one-sided remote service requests back
 * to it. Each link picks its communication method from the endpoint context's
 * {@link io.polylink.DescriptorTable}, automatically or under the control of the startpoint.
 *
 * <p>Inside an OSGi framework the context is a service. A plain Java application starts one with
 * {@link io.polylink.Polylink#start}, given {@link io.polylink.PolylinkSettings}.
 */
@Export
@Version("0.9.0")
package io.polylink;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
