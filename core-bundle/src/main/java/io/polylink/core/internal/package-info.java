/**
 * The core's assembly: one context and the parts behind it. {@link
 * io.polylink.core.internal.ContextRuntime} is the {@link io.polylink.Context} an application
 * uses and wires the parts in the packages below, which follow the path of one RSR:
 * {@code link} (startpoints) → {@code flow} (ordered, acknowledged delivery) → {@code select}
 * (which stack) → {@code channel} (one connection both ways) → {@code wire} (the bytes), and
 * back through {@code channel} to {@code endpoint} (dispatch). {@link
 * io.polylink.core.internal.ContextComponent} runs it in OSGi, {@link
 * io.polylink.core.internal.EmbeddedContext} without.
 *
 * <p>Threads: the caller's, for adding and removing methods and transforms and closing the
 * context; the framework's SCR thread, for the component's references. Packages depend on each
 * other in one direction only, down that path; nothing below calls back into this package.
 */
package io.polylink.core.internal;
