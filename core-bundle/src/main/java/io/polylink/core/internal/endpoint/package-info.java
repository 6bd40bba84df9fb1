/**
 * Endpoints and dispatch: the table an RSR's endpoint id is found in (no lock, no boxing), the
 * handler slots, and where a handler runs, inline on the thread that delivers (a method's
 * receiving thread, or the sender's for plain {@code local}) or in order on the handler pool.
 * Also the system endpoint every context has, which sends only where the context lets it. Called
 * by the channels' receivers and the local routes; unknown endpoints and handlers, and failing
 * handlers, are counted and logged.
 */
package io.polylink.core.internal.endpoint;
