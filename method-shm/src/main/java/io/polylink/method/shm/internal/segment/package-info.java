/**
 * Inbox segments, the files in the segment directory through which contexts on one host exchange
 * records: their binary layout ({@link io.polylink.method.shm.internal.segment.InboxLayout}), the
 * mapping that checks a file before any access and reads and writes its shared words
 * ({@link io.polylink.method.shm.internal.segment.Segment}), which files may be mapped at all and
 * how they are checked through descriptors
 * ({@link io.polylink.method.shm.internal.segment.TrustedDirectories}), the directory and its file
 * names, and this context's own inbox over its life.
 *
 * <p>No thread of its own. Every other package calls in: senders on their callers' threads, the
 * poller, the heartbeat timer, and the method's start and stop.
 */
package io.polylink.method.shm.internal.segment;
