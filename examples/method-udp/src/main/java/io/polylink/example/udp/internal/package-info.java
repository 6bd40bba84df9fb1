/**
 * An example method, {@code udp}, written against {@code io.polylink.spi} alone, for third parties
 * to copy: {@link io.polylink.example.udp.internal.UdpMethod} is the component the core starts and
 * stops, {@link io.polylink.example.udp.internal.UdpConnection} one peer's connection, and
 * {@link io.polylink.example.udp.internal.UdpAddress} what its descriptor carries.
 *
 * <p>Senders call in on their own threads; one thread, {@code polylink-udp-receiver}, receives
 * every datagram and hands its frame to the core.
 */
package io.polylink.example.udp.internal;
