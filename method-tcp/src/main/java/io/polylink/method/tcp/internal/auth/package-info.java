/**
 * Proving who a peer is: {@link io.polylink.method.tcp.internal.auth.PreSharedKey}, the key a node
 * is configured with and the proofs the handshake exchanges under it. Thread-safe; used by the
 * acceptor's thread and by dialling threads, at connection setup only.
 */
package io.polylink.method.tcp.internal.auth;
