/**
 * Point-to-point messaging on RSRs.
 *
 * <p>Each rank has one endpoint ({@link io.polylink.mpi.internal.p2p.Transport}) and a startpoint
 * to every other rank's. A message up to the eager limit travels whole (EAGER); a larger one sends
 * its envelope first (RTS), the receiver answers once a receive matched it (CTS), and the sender
 * then streams the data (DATA) straight from the application's buffer into the posted one.
 * {@link io.polylink.mpi.internal.p2p.Matcher} matches arrivals against posted receives in posting
 * order and keeps what arrives first in a bounded unexpected queue; since every message from one
 * rank to another travels one link, in order, MPI's non-overtaking rule holds.
 *
 * <p>Threads: {@link io.polylink.mpi.internal.p2p.PointToPoint} is called from application threads
 * (any number: {@code MPI_THREAD_MULTIPLE}). {@link io.polylink.mpi.internal.p2p.Inbound} runs
 * inline on the thread that delivers each message (a method's I/O thread, or an application
 * thread receiving for itself), so matching and rendezvous answers progress while the application
 * computes. It never blocks: the data a CTS asks for, which may wait for room at the receiver, goes
 * from the thread waiting for that send, or from one of the engine's
 * {@link io.polylink.mpi.internal.p2p.Pushers} when none waits. No lock is held while an RSR is
 * sent: a send to this rank's own endpoint runs the handler on the sending thread.
 */
package io.polylink.mpi.internal.p2p;
