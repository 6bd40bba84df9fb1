/**
 * The ring in an inbox: many producers, one consumer, records claimed, written and committed in
 * place with one compare-and-set each. {@link io.polylink.method.shm.internal.ring.Outbox} is one
 * producer's side, used by a connection on its senders' threads (serialised by the connection);
 * {@link io.polylink.method.shm.internal.ring.Inbox} is the consumer's, used by the poller thread
 * alone, which hands each record to a {@link io.polylink.method.shm.internal.ring.Inbox.RecordHandler}.
 * Nothing here allocates per record.
 */
package io.polylink.method.shm.internal.ring;
