/**
 * The {@code local} method: links within one context. Installed by the context like any method,
 * and said to deliver on send; plain {@code local} never reaches it (routes deliver to the
 * endpoint directly), a transformed stack such as {@code lz4/local} goes through its loopback
 * connection on the sender's thread.
 */
package io.polylink.core.internal.local;
