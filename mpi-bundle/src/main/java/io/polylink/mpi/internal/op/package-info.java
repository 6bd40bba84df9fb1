/**
 * Reduction operations: what {@code MPI_Reduce} and its relatives combine data with.
 *
 * <p>A {@link io.polylink.mpi.internal.op.Reduction} is an operation applied to one datatype: a
 * predefined one ({@link io.polylink.mpi.internal.op.Operator} on an
 * {@link io.polylink.mpi.internal.op.Element}, checked against MPI's table of which operation
 * applies to which type) or a user's function. It makes the
 * {@link io.polylink.mpi.internal.op.Operand}s a collective receives partial results into and
 * combines two of them. Predefined operations work on the data's primitives packed into an array
 * of their kind, so a sum of doubles is a loop over two {@code double[]}; a user's function gets
 * the data laid out as the datatype lays it out, in direct byte buffers (or boolean arrays), as
 * the Open MPI bindings give it.
 *
 * <p>Runs on whichever thread completes a collective's step: often a method's I/O thread.
 */
package io.polylink.mpi.internal.op;
