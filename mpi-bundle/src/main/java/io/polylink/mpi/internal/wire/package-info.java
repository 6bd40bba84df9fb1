/**
 * The engine's messages on the wire: {@link io.polylink.mpi.internal.wire.Header}, the layout of
 * the header at the start of every RSR the engine sends, and
 * {@link io.polylink.mpi.internal.wire.HeaderCodec}, which writes headers on the sending thread
 * and decodes them on the delivering thread. Decoding checks every field before the engine acts on it: a malformed
 * header is a {@link io.polylink.MalformedMessageException}, never another exception.
 */
package io.polylink.mpi.internal.wire;
