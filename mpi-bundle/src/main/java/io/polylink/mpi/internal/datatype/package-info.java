/**
 * Typed data between Java memory and messages.
 *
 * <p>A {@link io.polylink.mpi.internal.datatype.Typemap} is a datatype's layout: blocks of Java
 * primitives at byte displacements, with lower and upper bounds, as MPI defines them. A
 * {@link io.polylink.mpi.internal.datatype.Memory} is the application's buffer (a primitive
 * array, a heap buffer's array, or a direct buffer), addressed in bytes from its start. A
 * {@link io.polylink.mpi.internal.datatype.Cursor} walks count copies of a typemap over a memory
 * and copies whole primitives to a {@link io.polylink.mpi.internal.datatype.WireWriter} or from a
 * {@link io.polylink.mpi.internal.datatype.WireReader}, resuming where it stopped, so a large
 * message moves in chunks straight between the application's memory and the messages.
 *
 * <p>On the wire data is the datatype's primitives in order, in little-endian byte order, with no
 * gaps: the format of {@code MPI.PACKED} too. Memory is read and written in native byte order,
 * as the Open MPI bindings do.
 *
 * <p>Runs on whatever thread sends or delivers; nothing here is shared between threads.
 */
package io.polylink.mpi.internal.datatype;
