/**
 * MPI programs the tests run as jobs, each rank a thread with its own copy of these classes and of
 * package {@code mpi} (see {@code io.polylink.mpi.job.Job}). They are written against the Open
 * MPI Java bindings' API alone, as any program for them is, and check what they receive with
 * JUnit's assertions: a failed check fails its rank, and the test names the rank.
 */
package io.polylink.mpi.programs;
