/**
 * Gogo shell commands, scope {@code polylink}: the context's methods, table, statistics, links
 * and why each link is on its stack, ping, and a numbered stream through any context and back
 * ({@code stream}, {@code tally}). Run on the shell's thread, a stream on a thread of its own
 * ({@code polylink-stream}); they read the context's registry, flows and channels, which the
 * context registers as services. Gogo's {@code help} reads their {@code @Descriptor}s.
 */
package io.polylink.core.internal.shell;
