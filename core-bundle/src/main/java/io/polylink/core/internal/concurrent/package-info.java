/**
 * The threads a context runs besides the methods' own: the handler pool
 * ({@code polylink-handler-<n>}: executor handlers, and flows moving off a method's thread), the
 * control sender ({@code polylink-control-<context>}: control frames receiving threads owe), the
 * retry timer ({@code polylink-retry-<context>}: quiet acknowledgements, retries, background
 * connects, pool shrinking); the mark of a thread running an inline handler, which must never
 * wait for its peer; and the way the core holds its locks, so that an Error the JVM raises late
 * lets go of them ({@link io.polylink.core.internal.concurrent.Locks}). Each thread starts on
 * first use and ends when idle or when the context closes, and runs its tasks guarded: what one
 * throws is reported to the problem log and the thread goes on.
 */
package io.polylink.core.internal.concurrent;
