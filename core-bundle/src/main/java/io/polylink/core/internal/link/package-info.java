/**
 * Startpoints and the route each of their targets takes: {@code send} runs here first, on the
 * caller's thread. A route is chosen on a target's first send by binding its flow, and reused
 * while the context's generation holds: one volatile read and no allocation per send. A route
 * either hands the RSR to its flow or, on plain {@code local}, delivers it straight to the
 * endpoint. Called by the application, and by message buffers that carry startpoints.
 */
package io.polylink.core.internal.link;
