/**
 * Keeping peers alive and noticing when they are not: heartbeats for every connection from
 * {@code polylink-tcp-timer} ({@link io.polylink.method.tcp.internal.liveness.Heartbeats}), and the
 * peers that fell silent, which senders do not dial again on their own threads
 * ({@link io.polylink.method.tcp.internal.liveness.SilentPeers}, kept by the connection table).
 * Each connection's own checks run on the I/O loop's tick (see the {@code connection} package).
 */
package io.polylink.method.tcp.internal.liveness;
