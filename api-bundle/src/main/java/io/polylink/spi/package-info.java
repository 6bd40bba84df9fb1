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
 */
@Export
@Version("0.4.0")
package io.polylink.spi;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
