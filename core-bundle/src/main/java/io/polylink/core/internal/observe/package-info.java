/**
 * What can be observed of a context: exact counters behind its statistics, written without
 * locked instructions by the threads that count most, and the problem log, which counts each
 * error a peer, a handler or the environment causes and logs it, a few lines a second per kind.
 * Called from every thread.
 */
package io.polylink.core.internal.observe;
