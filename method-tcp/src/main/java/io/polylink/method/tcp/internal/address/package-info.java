/**
 * The tcp descriptor: which socket addresses a context advertises
 * ({@link io.polylink.method.tcp.internal.address.Advertised}) and how they are encoded
 * ({@link io.polylink.method.tcp.internal.address.TcpAddress}). Stateless; called from any thread,
 * by the method and by dialling.
 */
package io.polylink.method.tcp.internal.address;
