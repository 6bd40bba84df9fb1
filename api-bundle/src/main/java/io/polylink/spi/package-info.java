/**
 * Extending Polylink: communication methods, transforms, selection policies and naming
 * registries, each registered as an OSGi service.
 *
 * <p>A method bundle registers a {@link io.polylink.spi.CommunicationMethod} with the service
 * property {@value io.polylink.spi.CommunicationMethod#NAME_PROPERTY}{@code =<name>} and
 * declares the capability {@code polylink.method;polylink.method=<name>}. The core starts it,
 * hands it an {@link io.polylink.spi.InboundSink} for frames it receives, and asks it for
 * {@link io.polylink.spi.Connection}s. Methods move opaque frames; framing of RSRs, transforms,
 * selection and dispatch belong to the core.
 *
 * <p>Helpers every method needs come with the SPI rather than being copied into each bundle:
 * {@link io.polylink.spi.Configuration} reads a component's configuration through an annotation
 * type that declares each key and default once; {@link io.polylink.spi.ProblemLog} (from
 * {@link io.polylink.spi.MethodContext#problems()}) keeps floods of peer-caused problems out of the
 * log; {@link io.polylink.spi.HostIdentity} (from {@link io.polylink.spi.MethodContext#host()}) says
 * which host this is; {@link io.polylink.spi.PeerLocation} (from
 * {@link io.polylink.spi.TransformPeer#location()}) tells a transform where its peer runs, and
 * {@link io.polylink.spi.TransformScope} whether its scope covers that peer.
 */
@Export
@Version("0.9.0")
package io.polylink.spi;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
