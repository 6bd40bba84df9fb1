/**
 * How connections come to be: dialling ({@link io.polylink.method.tcp.internal.connect.Dialler},
 * on the thread that asks for a connection, or {@code polylink-tcp-dial} for a silent peer, with
 * its side of the handshake in {@code OutboundHandshake}), accepting
 * ({@link io.polylink.method.tcp.internal.connect.Acceptor}, on {@code polylink-tcp-accept}, with
 * each socket's side of the handshake in {@code InboundHandshake}, the bounds per remote address,
 * and the probes of live connections a dial claims), the handshake's bytes
 * ({@link io.polylink.method.tcp.internal.connect.Handshake}), and the table both decide on
 * together, with the rule that settles two contexts dialling each other at once
 * ({@link io.polylink.method.tcp.internal.connect.Connections}).
 *
 * <p>The method calls in to connect, and connections call the table when they close.
 */
package io.polylink.method.tcp.internal.connect;
