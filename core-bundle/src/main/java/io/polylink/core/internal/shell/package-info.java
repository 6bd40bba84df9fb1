/**
 * Gogo shell commands, scope {@code polylink}: the context's methods, table, statistics, links
 * and why each link is on its stack, and ping. Run on the shell's thread; read the context's
 * registry, flows and channels, which the context registers as services.
 */
package io.polylink.core.internal.shell;
