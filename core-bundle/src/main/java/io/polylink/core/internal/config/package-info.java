/**
 * The core's configuration (PID {@code io.polylink.core}): its keys and defaults, declared once,
 * read through {@link io.polylink.spi.Configuration} and checked, with the identity of the host
 * this JVM runs on and the stacks the context requires of its peers, which the channels and
 * selection ask once per stack. Read when a context is made, on the activating thread.
 */
package io.polylink.core.internal.config;
