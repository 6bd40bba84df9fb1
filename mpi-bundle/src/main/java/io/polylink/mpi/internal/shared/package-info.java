/**
 * Direct buffers in memory a host's ranks share, so a large message goes from its sender's buffer
 * to its receiver's in one copy.
 *
 * <p>{@link io.polylink.mpi.internal.shared.OwnSegments} makes the buffers {@code MPI.newByteBuffer}
 * and its typed siblings return: each a file of its own in a directory private to the user, mapped
 * into the rank, and named by the rank's process id and a random token. It knows each buffer by
 * its identity (typed views and slices lie in one: {@code datatype.DirectViews}), and deletes a file
 * once its buffer was collected or the rank finalized. {@link io.polylink.mpi.internal.shared.PeerSegments} maps other ranks' files
 * read-only, when an RTS names where a message's bytes lie, keeping a bounded number mapped.
 * {@link io.polylink.mpi.internal.shared.Bounces} keeps files of the same kind that a large message
 * from other memory is packed into, so its receiver reads it as from a shared buffer. A
 * communicator's ranks on one host meet for small collectives in a file of the same kind, which
 * every rank maps to write ({@code coll.HostArea}) and whose maker deletes it once all did.
 *
 * <p>A file is read only by ranks of the same user on the same host; a receiver that cannot map or
 * check it asks for the data the usual way instead, so a missing file costs a copy, never a message.
 */
package io.polylink.mpi.internal.shared;
