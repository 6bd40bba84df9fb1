/**
 * Operations in flight and waiting for them.
 *
 * <p>An {@link io.polylink.mpi.internal.request.Operation} is what an MPI request stands for: a
 * send, a receive, a step of a collective. It completes exactly once, on whichever thread finishes
 * it (often a method's I/O thread), and wakes the thread waiting for it.
 * {@link io.polylink.mpi.internal.request.Waits} waits for one, any, some or all of several;
 * {@link io.polylink.mpi.internal.request.Idle} says how a waiter receives on its own thread, how long
 * it spins, and when it parks.
 * Application threads call in; completion comes from anywhere.
 */
package io.polylink.mpi.internal.request;
