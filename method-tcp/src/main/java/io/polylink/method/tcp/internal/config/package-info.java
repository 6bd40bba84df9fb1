/**
 * The method's configuration: every key with its default, once
 * ({@link io.polylink.method.tcp.internal.config.TcpConfig}, PID {@code io.polylink.method.tcp}),
 * read and checked into {@link io.polylink.method.tcp.internal.config.TcpSettings}, whose
 * {@code Link} part a startpoint may override per link. Immutable; read when the component is
 * made, and for each dial with overrides.
 */
package io.polylink.method.tcp.internal.config;
